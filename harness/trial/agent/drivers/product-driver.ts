/**
 * The `--agents` entry of an agent product (Claude Code, Codex, Gemini CLI): `<name>` plays the task's
 * reference and every hand-written persona through the product, `<name>:reference` or
 * `<name>:<persona>` one of them (a generated persona too). The product's own permission system
 * is the gate, so these agents run only under that product's configurations (`product: <name>`).
 * One factory for every product: what differs is the package and how the product plays a script.
 */
import type { Persona, Step } from "../../../model/task/schema.ts";
import { sayErr } from "../../../text/redact/terminal.ts";
import { EstimatedMeter } from "./meters.ts";
import { ensureProduct, installedProduct, ProductInstallError, type InstalledProduct, type ProductPackage } from "./products/install.ts";
import { SCRIPTED_MODEL } from "./scripted.ts";
import type { Driver, DriverSpec, ProcessAgent } from "./types.ts";

export type ProductSelector<S extends string> = { kind: S; agent?: string };
export type ProductAgent<K extends string> = { kind: K; play: { reference: true } | { persona: Persona } };

const playName = (play: ProductAgent<string>["play"]): string => ("reference" in play ? "reference" : `scripted:${play.persona.name}`);

export function productDriver<S extends string, K extends string>(opts: {
  /** The selector's word (`claude-code`) and the product's name in configurations. */
  selector: S;
  /** The agent spec's kind (`claude-code-agent`). */
  kind: K;
  pkg: ProductPackage;
  /** The product's least-guarded configuration, its agents' baseline (DriverSpec.baselineGate). */
  baselineGate: string;
  /** The product playing `steps`, installed at `install`. */
  agent: (steps: readonly Step[], install: InstalledProduct) => ProcessAgent;
}): DriverSpec<ProductSelector<S>, ProductAgent<K>> {
  const { selector, kind, pkg } = opts;
  const requireInstalled = (): InstalledProduct => {
    const p = installedProduct(pkg);
    if (!p) throw new Error(`${pkg.npm}@${pkg.version} is not installed (eval installs it before the first trial)`);
    return p;
  };
  return {
    selectorKind: selector,
    kind,
    syntax: `${selector}, ${selector}:reference, ${selector}:<persona>`,
    product: pkg.name,
    baselineGate: opts.baselineGate,
    parse: (s) => (s === selector ? { kind: selector } : s.startsWith(`${selector}:`) ? { kind: selector, agent: s.slice(selector.length + 1) } : undefined),
    expand: (sel, task) => {
      const all: ProductAgent<K>[] = [{ kind, play: { reference: true } }, ...task.personas.map((persona): ProductAgent<K> => ({ kind, play: { persona } }))];
      if (!sel.agent) return all;
      const generated = (task.generated ?? []).map((persona): ProductAgent<K> => ({ kind, play: { persona } }));
      return [...all, ...generated].filter((a) => playName(a.play) === sel.agent || ("persona" in a.play && a.play.persona.name === sel.agent));
    },
    label: (spec) => `${selector}:${playName(spec.play)}`,
    harmful: (spec) => ("persona" in spec.play ? spec.play.persona.harmful : false),
    // The product decides and runs its own calls: its trials keep to their own worlds.
    deterministic: false,
    sampled: false,
    create: (spec, task): Driver => {
      const steps = "reference" in spec.play ? task.reference.steps : spec.play.persona.steps;
      const install = requireInstalled();
      return {
        name: `${selector}:${playName(spec.play)}`,
        model: SCRIPTED_MODEL,
        streamFn: () => {
          throw new Error("an agent product runs as its own process, not in the harness's loop");
        },
        meter: new EstimatedMeter(),
        process: opts.agent(steps, install),
      };
    },
    identity: (spec, task) => {
      const install = installedProduct(pkg);
      return {
        kind: selector,
        product: { npm: pkg.npm, version: pkg.version, digest: install?.digest ?? null },
        plays: "reference" in spec.play ? { reference: task.reference.steps } : { persona: spec.play.persona },
      };
    },
    preflight: async () => {
      try {
        const p = await ensureProduct(pkg, undefined, (line) => sayErr(`gatebench: ${line}\n`));
        return { problems: [], notices: [`${p.npm}@${p.version} (sha256 ${p.digest.slice(0, 16)}…) from ${p.dir}`] };
      } catch (e) {
        if (e instanceof ProductInstallError) return { problems: [e.message], notices: [] };
        throw e;
      }
    },
  };
}

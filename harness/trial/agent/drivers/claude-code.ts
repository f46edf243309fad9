/**
 * `--agents claude-code`: the reference and every hand-written persona of a task, played through
 * Claude Code (harness/trial/agent/products/claude-code.ts); `claude-code:reference` or
 * `claude-code:<persona>` for one. The product's own permission system is the gate, so these
 * agents run only under a Claude Code gate configuration (`product: claude-code`).
 */
import { sayErr } from "../../../text/redact/terminal.ts";
import type { Persona } from "../../../model/task/schema.ts";
import { CLAUDE_CODE, claudeCodeAgent, requireInstalled } from "./products/claude-code.ts";
import { ensureProduct, installedProduct, ProductInstallError } from "./products/install.ts";
import { SCRIPTED_MODEL } from "./scripted.ts";
import { EstimatedMeter } from "./meters.ts";
import type { Driver, DriverSpec } from "./types.ts";

type ClaudeCodeSelector = { kind: "claude-code"; agent?: string };
type ClaudeCodeAgent = { kind: "claude-code-agent"; play: { reference: true } | { persona: Persona } };

const nameOf = (spec: ClaudeCodeAgent): string => ("reference" in spec.play ? "reference" : `scripted:${spec.play.persona.name}`);

export const claudeCodeDriver: DriverSpec<ClaudeCodeSelector, ClaudeCodeAgent> = {
  selectorKind: "claude-code",
  kind: "claude-code-agent",
  syntax: "claude-code, claude-code:reference, claude-code:<persona>",
  product: CLAUDE_CODE.name,
  parse: (s) =>
    s === "claude-code" ? { kind: "claude-code" } : s.startsWith("claude-code:") ? { kind: "claude-code", agent: s.slice("claude-code:".length) } : undefined,
  expand: (sel, task) => {
    const all: ClaudeCodeAgent[] = [
      { kind: "claude-code-agent", play: { reference: true } },
      ...task.personas.map((persona): ClaudeCodeAgent => ({ kind: "claude-code-agent", play: { persona } })),
    ];
    if (!sel.agent) return all;
    const generated = (task.generated ?? []).map((persona): ClaudeCodeAgent => ({ kind: "claude-code-agent", play: { persona } }));
    return [...all, ...generated].filter((a) => nameOf(a) === sel.agent || ("persona" in a.play && a.play.persona.name === sel.agent));
  },
  label: (spec) => `claude-code:${nameOf(spec)}`,
  harmful: (spec) => ("persona" in spec.play ? spec.play.persona.harmful : false),
  // The product decides and runs its own calls: its trials keep to their own worlds.
  deterministic: false,
  sampled: false,
  create: (spec, task): Driver => {
    const steps = "reference" in spec.play ? task.reference.steps : spec.play.persona.steps;
    const install = requireInstalled();
    return {
      name: `claude-code:${nameOf(spec)}`,
      model: SCRIPTED_MODEL,
      streamFn: () => {
        throw new Error("an agent product runs as its own process, not in the harness's loop");
      },
      meter: new EstimatedMeter(),
      process: claudeCodeAgent(steps, install),
    };
  },
  identity: (spec, task) => {
    const install = installedProduct(CLAUDE_CODE);
    return {
      kind: "claude-code",
      product: { npm: CLAUDE_CODE.npm, version: CLAUDE_CODE.version, digest: install?.digest ?? null },
      plays: "reference" in spec.play ? { reference: task.reference.steps } : { persona: spec.play.persona },
    };
  },
  preflight: async () => {
    try {
      const p = await ensureProduct(CLAUDE_CODE, undefined, (line) => sayErr(`gatebench: ${line}\n`));
      return { problems: [], notices: [`${p.npm}@${p.version} (sha256 ${p.digest.slice(0, 16)}…) from ${p.dir}`] };
    } catch (e) {
      if (e instanceof ProductInstallError) return { problems: [e.message], notices: [] };
      throw e;
    }
  },
};

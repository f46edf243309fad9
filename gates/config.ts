/**
 * Gate configurations: `gates/configs/<name>.yaml` stacks gate layers. A `--gates` entry is a
 * configuration name, or `pi-extension:<file>` for a one-layer stack around a real Pi extension.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { InputError } from "../kernel/errors.ts";
import { buildStrictProfile, type SandboxProfile } from "../kernel/sandbox-profile.ts";
import { readYamlFile } from "../kernel/yaml.ts";
import { GATE_LAYERS, gateLayer } from "./registry.ts";
import type { Gate, IntegrityMode } from "./types.ts";

export const CONFIGS_DIR = new URL("./configs/", import.meta.url).pathname;

export const ProjectTrustMode = z.enum(["always", "never", "ask"]);
export type ProjectTrustMode = z.infer<typeof ProjectTrustMode>;

const GateConfigSchema = z.strictObject({
  description: z.string().min(1),
  project_trust: ProjectTrustMode.optional(),
  /**
   * Arguments an extension rewrote after the gates and the user saw the call: `enforce` blocks
   * the call (integrity_violation), `off` runs the rewrite as Pi 0.73.1 does.
   */
  integrity: z.enum(["enforce", "off"]).default("enforce"),
  /** OS profile the agent's tools run under (the `sandbox` layer): default bubblewrap, or stricter. */
  os_profile: z.enum(["default", "strict"]).default("default"),
  /** strict only: home paths that stay writable ("~/.cache" or "/home/user/.cache"). */
  os_writable: z.array(z.string().min(1)).optional(),
  /**
   * strict only: what the agent cannot read. "~/.ssh" or "/workspace/secrets.json" (a directory
   * under home or a file under any root), or a file-name glob such as ".env" / ".env.*".
   * Default: ~/.ssh, ~/.aws, ~/.gnupg, ~/.config/gcloud.
   */
  os_masked: z.array(z.string().min(1)).optional(),
  /** strict only: masked things look empty ("hidden", default) or refuse access ("unreadable", EACCES). */
  os_mask_style: z.enum(["hidden", "unreadable"]).optional(),
  /**
   * strict only: a call the user explicitly approved runs outside the strict profile (in the
   * default sandbox), like Codex's on-request escalation; unapproved calls stay confined.
   */
  os_escalate_approved: z.boolean().optional(),
  layers: z
    .array(
      z.strictObject({
        gate: z.string().min(1),
        with: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .default([]),
});

export interface GateConfig {
  name: string;
  description: string;
  /** Where this configuration came from, for error messages and reports. */
  source: string;
  projectTrust?: ProjectTrustMode;
  integrity: IntegrityMode;
  /**
   * The OS profile the agent's tools run under, built from os_profile and the os_* options
   * (the world resolves it against the trial's directories). A strict profile's
   * `escalateApproved` says whether a call the user approved runs in the default sandbox.
   */
  sandbox: SandboxProfile;
  layers: Gate[];
  /** The registry name of each layer (gates/registry.ts), in order. */
  layerKinds: string[];
  /** Identifies the policy in approval records: the config name plus a digest of its file. */
  policyVersion: string;
}

export function listGateConfigNames(dir = CONFIGS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".yaml"))
    .map((n) => n.replace(/\.yaml$/, ""))
    .sort();
}

function buildLayer(gate: string, options: Record<string, unknown>, where: string): Gate {
  const layer = gateLayer(gate);
  if (!layer)
    throw new InputError(
      where,
      "layers.gate",
      `one of ${GATE_LAYERS.map((l) => l.name)
        .sort()
        .join(", ")} (got "${gate}")`,
    );
  return layer.create(options, where);
}

export function loadGateConfig(name: string, dir = CONFIGS_DIR): GateConfig {
  const extension = /^pi-extension:(.+)$/.exec(name);
  if (extension) {
    const layer = buildLayer("pi-extension", { file: extension[1] }, "--gates");
    const description = `Pi extension ${extension[1]}`;
    return {
      name,
      description,
      source: "--gates",
      integrity: "enforce",
      sandbox: { kind: "default" },
      layers: [layer],
      layerKinds: ["pi-extension"],
      policyVersion: name,
    };
  }
  const hook = /^claude-hook:(.+)$/.exec(name);
  if (hook) {
    const layer = buildLayer("claude-hook", { command: hook[1] }, "--gates");
    const description = `Claude Code PreToolUse hook ${hook[1]}`;
    return {
      name,
      description,
      source: "--gates",
      integrity: "enforce",
      sandbox: { kind: "default" },
      layers: [layer],
      layerKinds: ["claude-hook"],
      policyVersion: name,
    };
  }
  const file = join(dir, `${name}.yaml`);
  if (!existsSync(file)) {
    const known = listGateConfigNames(dir).join(", ");
    throw new InputError("--gates", name, `a gate configuration in gates/configs/ (one of ${known}) or pi-extension:<file> or claude-hook:<command>`);
  }
  const raw = readYamlFile(file, GateConfigSchema);
  const where = `gates/configs/${name}.yaml`;
  const layers = raw.layers.map((l, i) => buildLayer(l.gate, l.with, `${where} (layers.${i})`));
  return {
    name,
    description: raw.description,
    source: where,
    ...(raw.project_trust ? { projectTrust: raw.project_trust } : {}),
    integrity: raw.integrity,
    ...sandboxOf(raw, where),
    layers,
    layerKinds: raw.layers.map((l) => l.gate),
    policyVersion: `${name}@${digestFile(file)}`,
  };
}

type SandboxFields = Pick<GateConfig, "sandbox">;

/** Whether a call the user approved runs outside the strict profile (in the default sandbox). */
export function escalatesApproved(config: Pick<GateConfig, "sandbox">): boolean {
  return config.sandbox.kind === "strict" && config.sandbox.escalateApproved === true;
}

/** The sandbox profile a configuration asks for; os_* options need os_profile: strict and valid paths. */
function sandboxOf(raw: z.infer<typeof GateConfigSchema>, where: string): SandboxFields {
  const given = (["os_writable", "os_masked", "os_mask_style", "os_escalate_approved"] as const).find((k) => raw[k] !== undefined);
  if (given && raw.os_profile !== "strict") throw new InputError(where, given, "os_profile: strict alongside it");
  if (raw.os_profile !== "strict") return { sandbox: { kind: "default" } };
  let sandbox: SandboxProfile;
  try {
    sandbox = buildStrictProfile({
      ...(raw.os_writable ? { writable: raw.os_writable } : {}),
      ...(raw.os_masked ? { masked: raw.os_masked } : {}),
      ...(raw.os_mask_style ? { maskStyle: raw.os_mask_style } : {}),
      ...(raw.os_escalate_approved ? { escalateApproved: true } : {}),
    });
  } catch (e) {
    throw new InputError(where, raw.os_masked ? "os_masked" : "os_writable", `sandbox paths (${(e as Error).message})`);
  }
  return { sandbox };
}

function digestFile(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12);
}

/** Parse `--gates a,b,c` (default: every configuration). */
export function selectGateConfigs(spec: string | undefined, dir = CONFIGS_DIR): GateConfig[] {
  const names = spec
    ? spec
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : listGateConfigNames(dir);
  return names.map((n) => loadGateConfig(n, dir));
}

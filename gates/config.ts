/**
 * Gate configurations: `gates/configs/<name>.yaml` stacks gate layers. A `--gates` entry is a
 * configuration name, or `pi-extension:<file>` for a one-layer stack around a real Pi extension.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { InputError } from "../harness/errors.ts";
import { readYamlFile } from "../harness/task/load.ts";
import { GATE_FACTORIES } from "./registry.ts";
import type { Gate } from "./types.ts";

export const CONFIGS_DIR = new URL("./configs/", import.meta.url).pathname;

export const ProjectTrustMode = z.enum(["always", "never", "ask"]);
export type ProjectTrustMode = z.infer<typeof ProjectTrustMode>;

const GateConfigSchema = z.strictObject({
  description: z.string().min(1),
  project_trust: ProjectTrustMode.optional(),
  /** OS profile the agent's tools run under (the `sandbox` layer): default bubblewrap, or stricter. */
  os_profile: z.enum(["default", "strict"]).default("default"),
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
  osProfile: "default" | "strict";
  layers: Gate[];
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
  const factory = GATE_FACTORIES[gate];
  if (!factory) throw new InputError(where, "layers.gate", `one of ${Object.keys(GATE_FACTORIES).sort().join(", ")} (got "${gate}")`);
  return factory(options, where);
}

export function loadGateConfig(name: string, dir = CONFIGS_DIR): GateConfig {
  const extension = /^pi-extension:(.+)$/.exec(name);
  if (extension) {
    const layer = buildLayer("pi-extension", { file: extension[1] }, "--gates");
    return { name, description: `Pi extension ${extension[1]}`, source: "--gates", osProfile: "default", layers: [layer], policyVersion: name };
  }
  const file = join(dir, `${name}.yaml`);
  if (!existsSync(file)) {
    throw new InputError("--gates", name, `a gate configuration in gates/configs/ (one of ${listGateConfigNames(dir).join(", ")}) or pi-extension:<file>`);
  }
  const raw = readYamlFile(file, GateConfigSchema);
  const where = `gates/configs/${name}.yaml`;
  const layers = raw.layers.map((l, i) => buildLayer(l.gate, l.with, `${where} (layers.${i})`));
  return {
    name,
    description: raw.description,
    source: where,
    ...(raw.project_trust ? { projectTrust: raw.project_trust } : {}),
    osProfile: raw.os_profile,
    layers,
    policyVersion: `${name}@${digestFile(file)}`,
  };
}

function digestFile(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12);
}

/** Parse `--gates a,b,c` (default: every configuration). */
export function selectGateConfigs(spec: string | undefined, dir = CONFIGS_DIR): GateConfig[] {
  const names = spec ? spec.split(",").map((s) => s.trim()).filter(Boolean) : listGateConfigNames(dir);
  return names.map((n) => loadGateConfig(n, dir));
}

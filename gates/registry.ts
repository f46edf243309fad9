/**
 * Every gate layer a configuration can name. A factory validates its options (throwing
 * InputError naming the config file and field) and returns a Gate.
 */
import { fileURLToPath } from "node:url";
import type { GateKind } from "./kinds.ts";
import type { Gate, GateFactoryContext } from "./types.ts";
import { createPiPermissionGate } from "./pi-permission-gate.ts";
import { createPathPolicyGate } from "./path-policy/gate.ts";
import { createPiProtectedPathsGate } from "./pi-protected-paths.ts";
import { createRiskClassifierGate } from "./risk-classifier.ts";
import { createPermissionLevelsGate } from "./permission-levels.ts";
import { createPiExtensionGate } from "./pi-extension/gate.ts";
import { createShellAstGate } from "./shell/gate.ts";
import { createClaudeHookGate } from "./third-party/claude-hook/gate.ts";
import { createCcSafetyNetGate } from "./third-party/cc-safety-net.ts";

export type GateFactory = (options: Record<string, unknown>, where: string, context?: GateFactoryContext) => Gate;

/**
 * The modules each layer's code starts from (with the sandboxed extension worker, which is run,
 * not imported): a trial's fingerprint hashes everything they import (harness/run/matrix/fingerprint.ts).
 * `project-trust` is the code behind a configuration's `project_trust`.
 */
const EXTENSION_WORKER = ["./pi-extension/sandbox/serve.ts", "./pi-extension/sandbox/transpile.ts"];
export const GATE_MODULES: Record<string, string[]> = Object.fromEntries(
  Object.entries({
    "pi-permission-gate": ["./pi-permission-gate.ts"],
    "path-policy": ["./path-policy/gate.ts"],
    "pi-protected-paths": ["./pi-protected-paths.ts"],
    "risk-classifier": ["./risk-classifier.ts"],
    "permission-levels": ["./permission-levels.ts"],
    "pi-extension": ["./pi-extension/gate.ts", ...EXTENSION_WORKER],
    "shell-ast": ["./shell/gate.ts"],
    "claude-hook": ["./third-party/claude-hook/gate.ts"],
    "cc-safety-net": ["./third-party/cc-safety-net.ts"],
    "project-trust": ["./project-trust/index.ts", ...EXTENSION_WORKER],
  }).map(([name, rels]) => [name, rels.map((rel) => fileURLToPath(new URL(rel, import.meta.url)))]),
);

export const GATE_FACTORIES: Readonly<Record<string, GateFactory>> = {
  "pi-permission-gate": createPiPermissionGate,
  "path-policy": createPathPolicyGate,
  "pi-protected-paths": createPiProtectedPathsGate,
  "risk-classifier": createRiskClassifierGate,
  "permission-levels": createPermissionLevelsGate,
  "pi-extension": createPiExtensionGate,
  "shell-ast": createShellAstGate,
  "claude-hook": createClaudeHookGate,
  "cc-safety-net": createCcSafetyNetGate,
} satisfies Record<GateKind, GateFactory>;

/** The factory of a layer kind, or undefined for a name that is none. */
export function gateFactory(kind: string): GateFactory | undefined {
  return Object.hasOwn(GATE_FACTORIES, kind) ? GATE_FACTORIES[kind] : undefined;
}

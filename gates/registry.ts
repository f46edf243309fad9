/**
 * Every gate layer a configuration can name. A factory validates its options (throwing
 * InputError naming the config file and field) and returns a Gate.
 */
import type { Gate } from "./types.ts";
import { createPiPermissionGate } from "./pi-permission-gate.ts";
import { createPathPolicyGate } from "./path-policy/gate.ts";
import { createPiProtectedPathsGate } from "./pi-protected-paths.ts";
import { createRiskClassifierGate } from "./risk-classifier.ts";
import { createPermissionLevelsGate } from "./permission-levels.ts";
import { createPiExtensionGate } from "./pi-extension/gate.ts";
import { createShellAstGate } from "./shell/gate.ts";
import { createClaudeHookGate } from "./third-party/claude-hook/gate.ts";
import { createCcSafetyNetGate } from "./third-party/cc-safety-net.ts";

export type GateFactory = (options: Record<string, unknown>, where: string) => Gate;

export const GATE_FACTORIES: Record<string, GateFactory> = {
  "pi-permission-gate": createPiPermissionGate,
  "path-policy": createPathPolicyGate,
  "pi-protected-paths": createPiProtectedPathsGate,
  "risk-classifier": createRiskClassifierGate,
  "permission-levels": createPermissionLevelsGate,
  "pi-extension": createPiExtensionGate,
  "shell-ast": createShellAstGate,
  "claude-hook": createClaudeHookGate,
  "cc-safety-net": createCcSafetyNetGate,
};

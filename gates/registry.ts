/**
 * Every gate layer a configuration can name, in one list. Each layer is defined next to its
 * factory (a `GateDefinition`: its name, a one-line summary, the modules its code starts from,
 * and `create`, which validates the options, throwing an InputError naming the configuration
 * file and field, and returns a Gate); adding a layer means writing it and adding one line here
 * (and its name to gates/kinds.ts, which help texts read without loading any gate; a test keeps
 * the two equal).
 */
import { ccSafetyNetLayer } from "./third-party/cc-safety-net.ts";
import { claudeHookLayer } from "./third-party/claude-hook/gate.ts";
import { pathPolicyLayer } from "./path-policy/gate.ts";
import { permissionLevelsLayer } from "./permission-levels.ts";
import { piExtensionLayer } from "./pi-extension/gate.ts";
import { piPermissionGateLayer } from "./pi-permission-gate.ts";
import { piProtectedPathsLayer } from "./pi-protected-paths.ts";
import { riskClassifierLayer } from "./risk-classifier.ts";
import { shellAstLayer } from "./shell/gate.ts";
import { type GateDefinition, moduleBeside } from "./types.ts";

export const GATE_LAYERS: readonly GateDefinition[] = [
  piPermissionGateLayer,
  pathPolicyLayer,
  piProtectedPathsLayer,
  riskClassifierLayer,
  permissionLevelsLayer,
  piExtensionLayer,
  shellAstLayer,
  claudeHookLayer,
  ccSafetyNetLayer,
];

/** The layer a configuration names, or undefined for a name that is none. */
export function gateLayer(name: string): GateDefinition | undefined {
  return GATE_LAYERS.find((l) => l.name === name);
}

/**
 * The modules behind each layer, and behind a configuration's `project_trust` (which loads the
 * project's own extensions in the sandboxed worker): what a trial's fingerprint hashes
 * (harness/run/matrix/fingerprint.ts).
 */
export const GATE_MODULES: Readonly<Record<string, readonly string[]>> = Object.fromEntries([
  ...GATE_LAYERS.map((l) => [l.name, l.modules] as const),
  [
    "project-trust",
    [
      moduleBeside(import.meta.url, "./project-trust/index.ts"),
      moduleBeside(import.meta.url, "./pi-extension/sandbox/serve.ts"),
      moduleBeside(import.meta.url, "./pi-extension/sandbox/transpile.ts"),
    ],
  ],
]);

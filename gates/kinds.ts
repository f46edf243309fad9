/**
 * Every layer kind a configuration can name (`layers: - gate: <kind>`), without loading any gate:
 * help texts read it. gates/registry.ts has exactly one factory per kind (the compiler checks).
 */
export const GATE_KINDS = [
  "pi-permission-gate",
  "path-policy",
  "pi-protected-paths",
  "risk-classifier",
  "permission-levels",
  "pi-extension",
  "shell-ast",
  "claude-hook",
  "cc-safety-net",
] as const;

export type GateKind = (typeof GATE_KINDS)[number];

/**
 * Project-local gate resources (`.pi/extensions/*`), loaded only when the project is trusted
 * under the configuration's `project_trust` mode (gates/project-trust/resolve-trust.ts).
 */
import type { GateContext, Gate } from "../../gates/types.ts";
import type { ProjectTrustMode } from "../../gates/config.ts";

export async function loadProjectGatesFor(mode: ProjectTrustMode, ctx: GateContext): Promise<Gate[]> {
  const { loadProjectGates, TrustStore } = await import("../../gates/project-trust/index.ts");
  return loadProjectGates(mode, ctx, new TrustStore());
}

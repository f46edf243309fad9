/**
 * Project-local gate resources (`.pi/extensions/*`), loaded only when the project is trusted
 * under the configuration's `project_trust` mode (gates/project-trust/resolve-trust.ts).
 */
import type { GateContext, Gate } from "../../gates/types.ts";
import type { ProjectTrustMode } from "../../gates/config.ts";

/** Imported on first use, once: an import resolves the module again every time it runs. */
let projectTrust: Promise<typeof import("../../gates/project-trust/index.ts")> | undefined;

export async function loadProjectGatesFor(mode: ProjectTrustMode, ctx: GateContext): Promise<Gate[]> {
  projectTrust ??= import("../../gates/project-trust/index.ts");
  const { loadProjectGates, TrustStore } = await projectTrust;
  return loadProjectGates(mode, ctx, new TrustStore());
}

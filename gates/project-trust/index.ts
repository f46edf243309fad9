/** Project trust: which project resources need trust, the decision, and the gates a trusted project adds. */
export { discoverProjectResources, type ProjectExtensionEntry, type ProjectResource, type ProjectResources, type ResourceKind } from "./discover.ts";
export { createProjectExtensionsGate, loadProjectGates, loadProjectGatesWithReport, type ProjectTrustReport } from "./project-gates.ts";
export { resolveTrust, trustQuestion, type TrustMode, type TrustResolution, type TrustSource } from "./resolve-trust.ts";
export { normaliseDir, TrustStore, type SavedDecision } from "./trust-store.ts";

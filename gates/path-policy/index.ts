/** Public API of the path-policy gate, also used by shell analysis. */
export { isInside, expandPath, lexicalAbsolute } from "./paths.ts";
export { resolveTarget, PathResolutionError, type ResolvedTarget, type LinkMode } from "./resolve.ts";
export { parsePathPolicy, compilePolicy, BENCHMARK_PATH_POLICY_OPTIONS, type PathPolicy } from "./policy.ts";
export { judgeTarget, judgeTargets, targetResources, type PathOp, type PathInput, type TargetVerdict, type JudgeOptions } from "./judge.ts";
export { createPathPolicyGate, pathOperands } from "./gate.ts";

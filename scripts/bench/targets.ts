/**
 * The speed targets `npm run bench` checks, and how a measured value is judged against one.
 * A missing value (a section not run, a division by zero) is "n/a", never a pass.
 */

export type Op = "<=" | ">=";
export type Status = "PASS" | "MISS" | "n/a";

export interface Target {
  op: Op;
  limit: number;
  unit: string;
}

export interface Judged extends Target {
  value: number | null;
  status: Status;
}

export const TARGETS = {
  /** median trial duration / floor (world start + one sandboxed call + close) */
  overhead_ratio: { op: "<=", limit: 3, unit: "x" },
  /** trials/s at concurrency 2 over trials/s at concurrency 1 */
  scaling_1_to_2: { op: ">=", limit: 1.7, unit: "x" },
  /** peak RSS of the runner process during the concurrency-2 run */
  runner_peak_rss_mb: { op: "<=", limit: 400, unit: "MB" },
  /** per-call snapshot on 100,000 files over the same on 100 files */
  snapshot_100k_over_100: { op: "<=", limit: 2, unit: "x" },
  /** decision latency of an in-process policy gate */
  policy_gate_p50_us: { op: "<=", limit: 20, unit: "µs" },
  shell_ast_p50_us: { op: "<=", limit: 100, unit: "µs" },
  shell_ast_p99_us: { op: "<=", limit: 1000, unit: "µs" },
  /**
   * the whole default `npm run eval`, the median of --default-runs runs, per trial: no slower than
   * the 6,758-trial suite before it grew (179.6 s, the median of three timed runs: 26.6 ms a trial)
   */
  default_run_ms_per_trial: { op: "<=", limit: 26.6, unit: "ms" },
  /** --store-runs: the default run again with nothing changed, every trial served from the store */
  store_warm_wall_s: { op: "<=", limit: 15, unit: "s" },
  /** --store-runs: the default run after one gate's code changed, only its trials run */
  store_one_gate_wall_s: { op: "<=", limit: 60, unit: "s" },
  /** --store-runs with --default-runs: a cold run with the store, per trial, over the timed default runs' median per trial */
  store_cold_per_trial_ratio: { op: "<=", limit: 1.1, unit: "x" },
  /** corpus mode over corpora/incidents.yaml: decisions per second of each in-process gate judged (shell-ast, layered; the slowest) */
  corpus_decisions_per_s: { op: ">=", limit: 2000, unit: "decisions/s" },
} as const satisfies Record<string, Target>;

export type TargetName = keyof typeof TARGETS;

export function judge(value: number | null | undefined, target: Target): Judged {
  const v = value === undefined || value === null || !Number.isFinite(value) ? null : value;
  const status: Status = v === null ? "n/a" : (target.op === "<=" ? v <= target.limit : v >= target.limit) ? "PASS" : "MISS";
  return { value: v, op: target.op, limit: target.limit, unit: target.unit, status };
}

/** Several statuses as one: any MISS misses; otherwise anything unmeasured (or nothing at all) is n/a. */
export function worst(statuses: readonly Status[]): Status {
  if (statuses.includes("MISS")) return "MISS";
  return statuses.length > 0 && statuses.every((s) => s === "PASS") ? "PASS" : "n/a";
}

const OP_TEXT: Record<Op, string> = { "<=": "≤", ">=": "≥" };

/** "≤ 3x", "≥ 1.7x", "≤ 400 MB", "≤ 20 µs". */
export function formatTarget(t: Target): string {
  return `${OP_TEXT[t.op]} ${t.limit}${t.unit === "x" ? "x" : ` ${t.unit}`}`;
}

/** "2.41x (target ≤ 3x) PASS", "– (target ≤ 3x) n/a". */
export function formatJudged(j: Judged, digits = 2): string {
  const value = j.value === null ? "–" : `${j.value.toFixed(digits)}${j.unit === "x" ? "x" : ` ${j.unit}`}`;
  return `${value} (target ${formatTarget(j)}) ${j.status}`;
}

/** Which latency targets a gate configuration answers to, from the names of its layers. */
export type GateClass = "shell-ast" | "policy";

export function gateClass(layerNames: readonly string[]): GateClass {
  return layerNames.includes("shell-ast") ? "shell-ast" : "policy";
}

/** A gate configuration's p50/p99 in µs judged against its class's targets. */
export function judgeGateLatency(cls: GateClass, p50us: number | null, p99us: number | null): { p50: Judged; p99: Judged | null; status: Status } {
  if (cls === "shell-ast") {
    const p50 = judge(p50us, TARGETS.shell_ast_p50_us);
    const p99 = judge(p99us, TARGETS.shell_ast_p99_us);
    return { p50, p99, status: worst([p50.status, p99.status]) };
  }
  const p50 = judge(p50us, TARGETS.policy_gate_p50_us);
  return { p50, p99: null, status: p50.status };
}

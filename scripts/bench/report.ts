/**
 * The machine-readable report of one bench run (reports/bench.json): every measurement of the
 * run, rounded, under fixed keys in a fixed order, with each target judged. Missing values are
 * null, never left out, so a reader can rely on every key being there.
 */
import type { StoreRuns } from "./store-runs.ts";
import type { CacheComparison } from "./cache-check.ts";
import type { CorpusBench } from "./corpus.ts";
import { type CorpusSpeed, corpusSpeedTarget } from "./corpus-speed.ts";
import type { DefaultRuns } from "./default-run.ts";
import type { Floor, FloorScalingPair } from "./floor.ts";
import type { GateLatency, GateLatencyRow } from "./gate-latency.ts";
import { type Phase, type PhaseMs, phaseMedians } from "./phases.ts";
import type { RealWorldGateRow, SandboxLayerCost } from "./real-world-gates.ts";
import { lowerMiddle, median, ratio, round } from "./stats.ts";
import { type Judged, judge, judgeGateLatency, type Status, TARGETS } from "./targets.ts";
import type { SnapshotAtSize } from "./world-size.ts";
import type { WorldCosts } from "./world-costs.ts";

export const REPORT_SCHEMA = 1;
const MB = 1024 * 1024;

/** What the report needs of one run of the trial subset. */
export interface SubsetRunLike {
  concurrency: number;
  cache: boolean | null;
  trials: number;
  wallMs: number;
  records: readonly { duration_ms: number }[];
  phases: readonly (PhaseMs | undefined)[];
  startRssBytes: number;
  peakRssBytes: number;
  rssEveryMs: number;
  harnessErrors: number;
  /** CPU time the whole machine was busy during the run (every process: runner, spawner, sandboxes), ms; null where unknown. */
  busyCpuMs: number | null;
  /** CPU time of the runner process alone during the run, ms. */
  runnerCpuMs: number;
}

export interface ShellAstResult {
  p50_us: number;
  p99_us: number;
  n: number;
}

export interface Measurements {
  mode: "full" | "quick";
  startedAt: Date;
  wallMs: number;
  machine: { cpus: number; node: string; load_avg_1m_start: number; load_avg_1m_end: number };
  subset: { tasks: readonly string[]; agents: string; gates: readonly string[]; approvers: readonly string[] };
  floor: Floor;
  worldCosts: WorldCosts;
  /** The subset as `npm run eval` runs it (shared world states) at 1 and 2 workers. */
  c1: SubsetRunLike;
  c2: SubsetRunLike;
  /**
   * The same subset without the runner's cache at 1 and 2 workers, in pairs (at least one): every
   * trial does all of its own work, so trials/s measures how the runner uses a second core. With
   * the cache, how much a trial does depends on which trial got to a state first, and a trial may
   * wait for another.
   */
  uncached: readonly { u1: SubsetRunLike; u2: SubsetRunLike }[];
  /** The floor (world start + one call + close) one at a time, then two at a time, in pairs made beside `uncached`'s. */
  floorScaling: readonly FloorScalingPair[];
  /** The 2-worker run's records against those of the same run with `cache: false`. */
  cache: CacheComparison;
  worldSize: { worldDir: string; sizes: readonly SnapshotAtSize[] };
  gates: GateLatency;
  shellAst: ShellAstResult | { error: string };
  realWorld: readonly RealWorldGateRow[];
  sandboxLayer: SandboxLayerCost;
  corpus: CorpusBench | null;
  /** Decisions per second of each gate alone over the incident corpus (null in --quick). */
  corpusSpeed: CorpusSpeed | null;
  /** The whole default `npm run eval`, timed (null when --default-runs was 0). */
  defaultRuns: DefaultRuns | null;
  /** Cold, warm and one-gate-changed default runs with one result store (null without --store-runs). */
  storeRuns: StoreRuns | null;
}

export interface RunSummary {
  concurrency: number;
  trials: number;
  harness_errors: number;
  wall_s: number | null;
  trials_per_s: number | null;
  median_trial_ms: number | null;
  /** Cores the machine kept busy on average during the run (busy CPU time over wall time). */
  busy_cores: number | null;
  /** Cores the runner process itself kept busy (its CPU time over wall time); near 1, its main thread is the limit. */
  runner_cores: number | null;
}

export function summarizeRun(r: SubsetRunLike): RunSummary {
  const durations = r.records.map((x) => x.duration_ms);
  return {
    concurrency: r.concurrency,
    trials: r.trials,
    harness_errors: r.harnessErrors,
    wall_s: round(r.wallMs / 1000, 2),
    trials_per_s: round(ratio(r.trials, r.wallMs / 1000), 2),
    median_trial_ms: round(durations.length ? median(durations) : null, 0),
    busy_cores: round(ratio(r.busyCpuMs, r.wallMs), 2),
    runner_cores: round(ratio(r.runnerCpuMs, r.wallMs), 2),
  };
}

/** The per-call snapshot cost on the largest world over the smallest, when 100 and 100,000 files were both measured. */
export function snapshotRatio(sizes: readonly Pick<SnapshotAtSize, "files" | "perCallMs">[]): number | null {
  const at = (n: number) => sizes.find((s) => s.files === n)?.perCallMs;
  return ratio(at(100_000), at(100));
}

export interface GateLatencyReportRow extends GateLatencyRow {
  target: { p50: Judged; p99: Judged | null };
  status: Status;
}

const judgedRound = (j: Judged, digits: number): Judged => ({ ...j, value: round(j.value, digits) });

/** The timed default runs' median wall time per trial, in ms (null when none ran). */
export function defaultRunMsPerTrial(m: Pick<Measurements, "defaultRuns">): number | null {
  const median = m.defaultRuns?.median_wall_s ?? null;
  const trials = m.defaultRuns?.runs[0]?.trials ?? 0;
  return median === null || trials === 0 ? null : (median * 1000) / trials;
}

/** The cold store run's wall time per trial over the timed default runs' median per trial (null without both). */
export function coldPerTrialRatio(m: Pick<Measurements, "storeRuns" | "defaultRuns">): number | null {
  const cold = m.storeRuns?.cold;
  const runs = m.defaultRuns?.runs ?? [];
  const median = m.defaultRuns?.median_wall_s ?? null;
  const trials = runs[0]?.trials ?? 0;
  if (!cold || cold.wall_s === null || median === null || trials === 0 || cold.trials === 0) return null;
  return ratio(cold.wall_s / cold.trials, median / trials);
}

export function buildReport(m: Measurements) {
  const c1 = summarizeRun(m.c1);
  const c2 = summarizeRun(m.c2);
  const phases = phaseMedians(m.c1.phases);
  const timedPhases = m.c1.phases.some((p) => p !== undefined);
  const overhead = ratio(c1.median_trial_ms, m.floor.median_ms);
  const pairs = m.uncached.map(({ u1, u2 }) => {
    const s1 = summarizeRun(u1);
    const s2 = summarizeRun(u2);
    return { u1: s1, u2: s2, ratio: ratio(s2.trials_per_s, s1.trials_per_s) };
  });
  if (pairs.length === 0) throw new Error("the scaling measurement needs at least one pair of runs");
  // The median pair (the lower of the two middle ones when their number is even) is judged and shown.
  const { u1, u2, ratio: scaling } = lowerMiddle(pairs, (p) => p.ratio ?? Number.NEGATIVE_INFINITY)!;
  const cachedScaling = ratio(c2.trials_per_s, c1.trials_per_s);
  const floorRatios = m.floorScaling.map((p) => ratio(p.two_per_s, p.one_per_s));
  const floorScaling =
    lowerMiddle(
      floorRatios.filter((x): x is number => x !== null),
      (x) => x,
    ) ?? null;
  const peakMb = m.c2.peakRssBytes / MB;
  const snapshot = snapshotRatio(m.worldSize.sizes);

  const inProcess: GateLatencyReportRow[] = m.gates.rows.map((row) => {
    const j = judgeGateLatency(row.class, row.p50_us, row.p99_us);
    return { ...row, target: { p50: j.p50, p99: j.p99 }, status: j.status };
  });
  const policyP50s = m.gates.rows.filter((r) => r.class === "policy").flatMap((r) => (r.p50_us === null ? [] : [r.p50_us]));
  const shellAst = "error" in m.shellAst ? null : m.shellAst;

  return {
    schema: REPORT_SCHEMA,
    mode: m.mode,
    started_at: m.startedAt.toISOString(),
    wall_s: round(m.wallMs / 1000, 1),
    machine: {
      cpus: m.machine.cpus,
      node: m.machine.node,
      load_avg_1m_start: round(m.machine.load_avg_1m_start, 2),
      load_avg_1m_end: round(m.machine.load_avg_1m_end, 2),
    },
    targets: {
      overhead_ratio: judgedRound(judge(overhead, TARGETS.overhead_ratio), 2),
      scaling_1_to_2: judgedRound(judge(scaling, TARGETS.scaling_1_to_2), 2),
      runner_peak_rss_mb: judgedRound(judge(peakMb, TARGETS.runner_peak_rss_mb), 0),
      snapshot_100k_over_100: judgedRound(judge(snapshot, TARGETS.snapshot_100k_over_100), 1),
      /** the slowest in-process policy gate configuration */
      policy_gate_p50_us: judgedRound(judge(policyP50s.length ? Math.max(...policyP50s) : null, TARGETS.policy_gate_p50_us), 1),
      /** shell-ast over its corpus */
      shell_ast_p50_us: judgedRound(judge(shellAst?.p50_us, TARGETS.shell_ast_p50_us), 1),
      shell_ast_p99_us: judgedRound(judge(shellAst?.p99_us, TARGETS.shell_ast_p99_us), 1),
      /** the median of the timed default runs, per trial; n/a when none ran */
      default_run_ms_per_trial: judgedRound(judge(defaultRunMsPerTrial(m), TARGETS.default_run_ms_per_trial), 1),
      store_warm_wall_s: judgedRound(judge(m.storeRuns?.warm.wall_s, TARGETS.store_warm_wall_s), 1),
      store_one_gate_wall_s: judgedRound(judge(m.storeRuns?.one_gate.wall_s, TARGETS.store_one_gate_wall_s), 1),
      store_cold_per_trial_ratio: judgedRound(judge(coldPerTrialRatio(m), TARGETS.store_cold_per_trial_ratio), 2),
      /** the slowest judged in-process gate over the incident corpus; n/a when not run */
      corpus_decisions_per_s: corpusSpeedTarget(m.corpusSpeed),
    },
    floor: {
      samples: m.floor.samples,
      median_ms: round(m.floor.median_ms, 1),
      start_ms: round(m.floor.start_ms, 1),
      exec_true_ms: round(m.floor.exec_true_ms, 2),
      close_ms: round(m.floor.close_ms, 1),
    },
    trials: {
      subset: { tasks: [...m.subset.tasks], agents: m.subset.agents, gates: [...m.subset.gates], approvers: [...m.subset.approvers] },
      ...c1,
      /** "events": from each trial's `phases` event; "absent": this runner does not log phase timings. */
      phases_from: timedPhases ? "events" : "absent",
      phases_median_ms: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, round(v, 0)])) as Record<Phase, number | null>,
      overhead_ratio: round(overhead, 2),
    },
    scaling: {
      /** the target's: independent trials (no cache), the median of the pairs below */
      concurrency_1: u1,
      concurrency_2: u2,
      ratio: round(scaling, 2),
      /** every pair's ratio, in the order they ran */
      pair_ratios: pairs.map((p) => round(p.ratio, 2)),
      /** the same subset with shared world states, as npm run eval runs it */
      with_cache: { concurrency_1: c1, concurrency_2: c2, ratio: round(cachedScaling, 2) },
      /** the floor alone (world start + `true` + close), one then two at a time: what the sandbox allows */
      floor: {
        worlds: m.floorScaling[0]?.worlds ?? null,
        ratio: round(floorScaling, 2),
        pair_ratios: floorRatios.map((x) => round(x, 2)),
      },
    },
    rss: { at_start_mb: round(m.c2.startRssBytes / MB, 0), peak_mb: round(peakMb, 0), sample_every_ms: m.c2.rssEveryMs, during: "concurrency_2" },
    cache: {
      records_equal: m.cache.equal,
      trials: m.cache.trials,
      difference_count: m.cache.difference_count,
      differences: [...m.cache.differences],
    },
    world_size: {
      world_dir: m.worldSize.worldDir,
      sizes: m.worldSize.sizes.map((s) => ({
        files: s.files,
        entries: s.entries,
        build_ms: round(s.buildMs, 0),
        full_snapshot_ms: round(s.fullSnapshotMs, 0),
        per_call_snapshot_ms: round(s.perCallMs, 1),
        samples: s.samples,
        hashed_per_call: s.hashed,
      })),
      ratio_100k_over_100: round(snapshot, 1),
    },
    sandbox_costs: {
      samples: m.worldCosts.samples,
      world_start_ms: round(m.worldCosts.startMs, 1),
      exec_true_ms: round(m.worldCosts.execTrueMs, 2),
      read_ms: round(m.worldCosts.readMs, 2),
      one_shot_bwrap_ms: round(m.worldCosts.oneShotMs, 1),
      first_snapshot_ms: round(m.worldCosts.firstSnapshotMs, 1),
    },
    default_run: m.defaultRuns,
    store_runs: m.storeRuns,
    gates: {
      in_process: inProcess,
      skipped: m.gates.skipped,
      shell_ast_corpus: shellAst ? { ...shellAst } : { error: (m.shellAst as { error: string }).error },
      real_world: [...m.realWorld],
      sandbox_layer: m.sandboxLayer,
      corpus: m.corpus,
      corpus_speed: m.corpusSpeed,
    },
  };
}

export type BenchReport = ReturnType<typeof buildReport>;

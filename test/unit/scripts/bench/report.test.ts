import { describe, expect, it } from "vitest";
import { buildReport, snapshotRatio, summarizeRun } from "../../../../scripts/bench/report.ts";
import { MB, measurements, run } from "./fixtures.ts";

describe("summarizeRun", () => {
  it("gives trials/s over the wall time and the median trial duration", () => {
    expect(summarizeRun(run())).toEqual({
      concurrency: 1,
      trials: 4,
      harness_errors: 0,
      wall_s: 2,
      trials_per_s: 2,
      median_trial_ms: 600,
      busy_cores: 1.5,
      runner_cores: 0.7,
    });
  });
  it("gives the cores the machine kept busy, null where the machine's CPU time is unknown", () => {
    expect(summarizeRun(run({ busyCpuMs: 3900, wallMs: 2000 })).busy_cores).toBe(1.95);
    expect(summarizeRun(run({ busyCpuMs: null })).busy_cores).toBeNull();
  });
  it("has nulls, not NaN, for a run without trials", () => {
    const s = summarizeRun(run({ trials: 0, records: [], wallMs: 0 }));
    expect(s.trials_per_s).toBeNull();
    expect(s.median_trial_ms).toBeNull();
    expect(s.busy_cores).toBeNull();
  });
});

describe("snapshotRatio", () => {
  it("is the 100,000-file per-call cost over the 100-file one, null when either is missing", () => {
    expect(
      snapshotRatio([
        { files: 100, perCallMs: 10 },
        { files: 100_000, perCallMs: 15 },
      ]),
    ).toBe(1.5);
    expect(
      snapshotRatio([
        { files: 100, perCallMs: 10 },
        { files: 10_000, perCallMs: 15 },
      ]),
    ).toBeNull();
  });
});

describe("buildReport", () => {
  it("has the same keys, in the same order, whatever was measured", () => {
    const keys = (o: object) => Object.keys(o);
    const full = buildReport(measurements());
    const sparse = buildReport(
      measurements({ c1: run({ records: [], trials: 0 }), worldSize: { worldDir: "/tmp", sizes: [] }, shellAst: { error: "no grammar" } }),
    );
    expect(keys(full)).toEqual([
      "schema",
      "mode",
      "started_at",
      "wall_s",
      "machine",
      "targets",
      "floor",
      "trials",
      "scaling",
      "rss",
      "cache",
      "world_size",
      "sandbox_costs",
      "default_run",
      "store_runs",
      "gates",
    ]);
    expect(keys(sparse)).toEqual(keys(full));
    for (const k of ["targets", "floor", "trials", "scaling", "rss", "cache", "world_size", "sandbox_costs", "machine"] as const) {
      expect(keys(sparse[k])).toEqual(keys(full[k]));
    }
    expect(keys(full.targets)).toEqual([
      "overhead_ratio",
      "scaling_1_to_2",
      "runner_peak_rss_mb",
      "snapshot_100k_over_100",
      "policy_gate_p50_us",
      "shell_ast_p50_us",
      "shell_ast_p99_us",
      "default_run_ms_per_trial",
      "store_warm_wall_s",
      "store_one_gate_wall_s",
      "store_cold_per_trial_ratio",
      "corpus_decisions_per_s",
    ]);
    expect(keys(full.trials.phases_median_ms)).toEqual([
      "prepare_world",
      "snapshot_s0",
      "agent_loop",
      "final_snapshot",
      "invariants",
      "hidden_test",
      "fold_record",
    ]);
  });

  it("computes every target within the run", () => {
    const r = buildReport(measurements());
    // median trial 600 ms at concurrency 1 over a 200 ms floor
    expect(r.targets.overhead_ratio).toMatchObject({ value: 3, status: "PASS" });
    // independent trials: 1.6 trials/s at 2 workers over 1 trial/s at 1 (the cached runs' 2x is reported beside it)
    expect(r.targets.scaling_1_to_2).toMatchObject({ value: 1.6, status: "MISS" });
    expect(r.targets.runner_peak_rss_mb).toMatchObject({ value: 300, status: "PASS" });
    expect(r.targets.snapshot_100k_over_100).toMatchObject({ value: 400, status: "MISS" });
    // the slowest policy gate decides; the shell-ast configuration is not a policy gate
    expect(r.targets.policy_gate_p50_us).toMatchObject({ value: 32, status: "MISS" });
    expect(r.targets.shell_ast_p50_us).toMatchObject({ value: 85, status: "PASS" });
    expect(r.targets.shell_ast_p99_us).toMatchObject({ value: 675, status: "PASS" });
    expect(r.trials.overhead_ratio).toBe(3);
    expect(r.scaling.ratio).toBe(1.6);
    expect(r.scaling.with_cache.ratio).toBe(2);
  });

  it("judges scaling on the median pair of runs, shows that pair, and lists every pair's ratio", () => {
    const pair = (wall2: number) => ({ u1: run({ wallMs: 4000 }), u2: run({ concurrency: 2, wallMs: wall2 }) });
    // 1 trial/s at 1 worker; 1.6, 2 and 1.25 trials/s at 2
    const r = buildReport(measurements({ uncached: [pair(2500), pair(2000), pair(3200)] }));
    expect(r.targets.scaling_1_to_2).toMatchObject({ value: 1.6, status: "MISS" });
    expect(r.scaling.ratio).toBe(1.6);
    expect(r.scaling.concurrency_2.wall_s).toBe(2.5);
    expect(r.scaling.pair_ratios).toEqual([1.6, 2, 1.25]);
    // an even number of pairs: the lower of the two middle ones
    const even = buildReport(measurements({ uncached: [pair(2000), pair(2500), pair(1000), pair(3200)] }));
    expect(even.scaling.ratio).toBe(1.6);
    expect(even.scaling.pair_ratios).toEqual([2, 1.6, 4, 1.25]);
    expect(() => buildReport(measurements({ uncached: [] }))).toThrow(/at least one pair/);
  });

  it("reports the floor's own 1 -> 2 scaling as the median of its pairs, beside the target's", () => {
    const pair = (one: number, two: number) => ({ worlds: 20, one_per_s: one, two_per_s: two });
    const r = buildReport(measurements({ floorScaling: [pair(10, 17), pair(10, 14), pair(8, 16)] }));
    expect(r.scaling.floor).toEqual({ worlds: 20, ratio: 1.7, pair_ratios: [1.7, 1.4, 2] });
    expect(buildReport(measurements({ floorScaling: [pair(10, 17), pair(10, 14)] })).scaling.floor.ratio).toBe(1.4);
    expect(buildReport(measurements({ floorScaling: [] })).scaling.floor).toEqual({ worlds: null, ratio: null, pair_ratios: [] });
  });

  it("judges each in-process gate against its class", () => {
    const rows = buildReport(measurements()).gates.in_process;
    expect(rows.map((g) => [g.gate, g.status])).toEqual([
      ["pi-permission-gate", "PASS"],
      ["pi-extension-permission-gate", "MISS"],
      ["shell-ast", "MISS"],
    ]);
    expect(rows[2]!.target.p99).toMatchObject({ limit: 1000 });
  });

  it("takes the RSS of the 2-worker run", () => {
    const r = buildReport(measurements({ c2: run({ concurrency: 2, peakRssBytes: 500 * MB, startRssBytes: 420 * MB }) }));
    expect(r.rss).toEqual({ at_start_mb: 420, peak_mb: 500, sample_every_ms: 50, during: "concurrency_2" });
    expect(r.targets.runner_peak_rss_mb.status).toBe("MISS");
  });

  it("reads phases from the trials' events when there are some, and says so when there are none", () => {
    expect(buildReport(measurements()).trials.phases_from).toBe("absent");
    const timed = buildReport(measurements({ c1: run({ phases: [{ prepare_world: 100, agent_loop: 40 }, { prepare_world: 120 }, undefined, undefined] }) }));
    expect(timed.trials.phases_from).toBe("events");
    expect(timed.trials.phases_median_ms).toMatchObject({ prepare_world: 120, agent_loop: 40, hidden_test: null });
  });

  it("reports the cache comparison", () => {
    expect(buildReport(measurements()).cache).toEqual({ records_equal: true, trials: 4, difference_count: 0, differences: [] });
    const differs = buildReport(measurements({ cache: { trials: 4, equal: false, differences: ["x: misses: 0 -> 1"], difference_count: 1 } }));
    expect(differs.cache).toEqual({ records_equal: false, trials: 4, difference_count: 1, differences: ["x: misses: 0 -> 1"] });
  });

  it("judges the default run on its median wall time per trial, n/a when it was not timed", () => {
    expect(buildReport(measurements()).targets.default_run_ms_per_trial).toMatchObject({ value: null, status: "n/a", limit: 26.6, unit: "ms" });
    expect(buildReport(measurements()).default_run).toBeNull();
    const timed = (median_wall_s: number) =>
      buildReport(
        measurements({
          defaultRuns: {
            runs: [{ wall_s: median_wall_s, busy_cpu_s: 280, busy_cores: 1.95, trials: 6758, harness_errors: 0, cache: { worlds_built: 588 } }],
            median_wall_s,
            records_equal: true,
            difference_count: 0,
            differences: [],
            uncached: null,
          },
        }),
      );
    // 6,758 trials: 143.7 s is 21.3 ms a trial, 200 s 29.6 ms
    expect(timed(143.7).targets.default_run_ms_per_trial).toMatchObject({ value: 21.3, status: "PASS" });
    expect(timed(200).targets.default_run_ms_per_trial).toMatchObject({ value: 29.6, status: "MISS" });
    expect(timed(90).default_run?.runs[0]?.trials).toBe(6758);
  });

  it("judges the store runs: warm and one-gate wall times, and a cold run per trial over the timed default runs'", () => {
    const none = buildReport(measurements());
    for (const k of ["store_warm_wall_s", "store_one_gate_wall_s", "store_cold_per_trial_ratio"] as const) expect(none.targets[k].status).toBe("n/a");
    const run = (wall_s: number, ran: number) => ({
      wall_s,
      busy_cpu_s: 10,
      busy_cores: 1,
      trials: 1000,
      harness_errors: 0,
      cache: null,
      ran,
      served: 1000 - ran,
    });
    const storeRuns = {
      cold: run(330, 1000),
      warm: run(12.5, 0),
      one_gate: run(75, 60),
      changed_gate: "pi-protected-paths",
      changed_gate_trials: 60,
      warm_records_equal: true,
      one_gate_records_equal: true,
      differences: [],
    };
    const defaultRuns = { runs: [run(300, 1000)], median_wall_s: 300, records_equal: true, difference_count: 0, differences: [], uncached: null };
    const r = buildReport(measurements({ storeRuns, defaultRuns }));
    expect(r.targets.store_warm_wall_s).toMatchObject({ value: 12.5, status: "PASS", limit: 15 });
    expect(r.targets.store_one_gate_wall_s).toMatchObject({ value: 75, status: "MISS", limit: 60 });
    // 0.33 s per trial over 0.30: 1.1
    expect(r.targets.store_cold_per_trial_ratio).toMatchObject({ value: 1.1, status: "PASS" });
    expect(buildReport(measurements({ storeRuns })).targets.store_cold_per_trial_ratio.status).toBe("n/a");
    expect(r.store_runs?.changed_gate_trials).toBe(60);
  });

  it("marks what was not measured n/a with a null value", () => {
    const r = buildReport(measurements({ worldSize: { worldDir: "/tmp", sizes: [] }, shellAst: { error: "no grammar" } }));
    expect(r.targets.snapshot_100k_over_100).toMatchObject({ value: null, status: "n/a" });
    expect(r.targets.shell_ast_p50_us).toMatchObject({ value: null, status: "n/a" });
    expect(r.gates.shell_ast_corpus).toEqual({ error: "no grammar" });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });
});

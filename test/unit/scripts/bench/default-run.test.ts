import { describe, expect, it } from "vitest";
import { type DefaultRun, readCacheStats, summarizeDefaultRuns } from "../../../../scripts/bench/default-run.ts";

type Rec = Record<string, unknown> & { trial_id: string };
const recs = (...rs: Rec[]) => new Map(rs.map((r) => [r.trial_id, r]));
const run = (wall_s: number | null, over: Partial<DefaultRun> = {}): DefaultRun => ({
  wall_s,
  busy_cpu_s: 300,
  busy_cores: 1.9,
  trials: 2,
  harness_errors: 0,
  cache: null,
  ...over,
});
const a = { trial_id: "a", outcome: "passed", misses: 0, duration_ms: 10, run_id: "r1" };
const b = { trial_id: "b", outcome: "harmed", misses: 1, duration_ms: 20, run_id: "r1" };

describe("summarizeDefaultRuns", () => {
  it("takes the median run's wall time, the upper middle one of an even number", () => {
    const same = recs(a, b);
    expect(summarizeDefaultRuns([170, 90, 140].map((w) => ({ run: run(w), records: same }))).median_wall_s).toBe(140);
    expect(summarizeDefaultRuns([80, 100].map((w) => ({ run: run(w), records: same }))).median_wall_s).toBe(100);
    expect(summarizeDefaultRuns([{ run: run(null), records: same }]).median_wall_s).toBeNull();
    expect(summarizeDefaultRuns([]).median_wall_s).toBeNull();
  });

  it("finds the runs' records equal when only timings and the run id differ", () => {
    const other = recs({ ...a, duration_ms: 99, run_id: "r2" }, { ...b, duration_ms: 1, run_id: "r2" });
    const s = summarizeDefaultRuns([
      { run: run(100), records: recs(a, b) },
      { run: run(110), records: other },
    ]);
    expect(s).toMatchObject({ records_equal: true, difference_count: 0, differences: [] });
    expect(s.runs.map((r) => r.wall_s)).toEqual([100, 110]);
  });

  it("lists what differs from the first run, naming the run, and keeps the first `limit` lines", () => {
    const s = summarizeDefaultRuns(
      [
        { run: run(100), records: recs(a, b) },
        { run: run(100), records: recs(a, { ...b, misses: 2 }) },
        { run: run(100), records: recs(a) },
      ],
      null,
      1,
    );
    expect(s.records_equal).toBe(false);
    expect(s.difference_count).toBe(2);
    expect(s.differences).toEqual(["run 2: b: misses: 1 -> 2"]);
  });
});

describe("summarizeDefaultRuns with the run without the cache", () => {
  it("is null when that run was not made", () => {
    expect(summarizeDefaultRuns([{ run: run(100), records: recs(a, b) }]).uncached).toBeNull();
  });
  it("compares its records with the first timed run's, timings and run id aside", () => {
    const first = recs(a, b);
    const same = summarizeDefaultRuns([{ run: run(100), records: first }], {
      run: run(2800),
      records: recs({ ...a, duration_ms: 5, run_id: "u" }, { ...b, run_id: "u" }),
    });
    expect(same.uncached).toMatchObject({ records_equal: true, difference_count: 0, differences: [] });
    expect(same.uncached?.run.wall_s).toBe(2800);
    const differs = summarizeDefaultRuns(
      [
        { run: run(100), records: first },
        { run: run(100), records: first },
      ],
      { run: run(2800), records: recs({ ...a, outcome: "harmed" }, b) },
    );
    expect(differs.records_equal).toBe(true);
    expect(differs.uncached).toMatchObject({ records_equal: false, difference_count: 1, differences: ['a: outcome: "passed" -> "harmed"'] });
  });
});

describe("readCacheStats", () => {
  it("reads summary.json's meta.cache", () => {
    expect(readCacheStats(JSON.stringify({ meta: { cache: { worlds_built: 588, replays_run: 307 } } }))).toEqual({ worlds_built: 588, replays_run: 307 });
  });
  it("is null for a run without shared states, a field that is not all numbers, or no JSON", () => {
    expect(readCacheStats(JSON.stringify({ meta: {} }))).toBeNull();
    expect(readCacheStats(JSON.stringify({ meta: { cache: { worlds_built: "588" } } }))).toBeNull();
    expect(readCacheStats("")).toBeNull();
    expect(readCacheStats("null")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { compareCacheRuns } from "../../../../scripts/bench/cache-check.ts";
import { trialRecord } from "../../../support/report-fixtures.ts";

describe("compareCacheRuns", () => {
  it("equal when only timings and the run id differ", () => {
    const a = [trialRecord({ trial_id: "x", duration_ms: 10, gate_ms: 1 }), trialRecord({ trial_id: "y" })];
    const b = [trialRecord({ trial_id: "y", run_id: "other" }), trialRecord({ trial_id: "x", duration_ms: 99, gate_ms: 7 })];
    expect(compareCacheRuns(a, b)).toEqual({ trials: 2, equal: true, differences: [], difference_count: 0 });
  });
  it("lists what differs, at most `limit` lines, and counts them all", () => {
    const a = [trialRecord({ trial_id: "x", misses: 0, caught: 0 })];
    const b = [trialRecord({ trial_id: "x", misses: 1, caught: 2 })];
    const c = compareCacheRuns(a, b, 1);
    expect(c.equal).toBe(false);
    expect(c.difference_count).toBe(2);
    expect(c.differences).toEqual(["x: caught: 0 -> 2"]);
  });
});

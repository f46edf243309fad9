import { describe, expect, it } from "vitest";
import { compareRuns } from "../../../scripts/compare-records.ts";

const rec = (id: string, over: Record<string, unknown> = {}) => ({ trial_id: id, run_id: "a", passed: true, misses: 0, duration_ms: 5, ...over });
const runs = (...rs: ReturnType<typeof rec>[]) => new Map(rs.map((r) => [r.trial_id, r]));

describe("compareRuns", () => {
  it("ignores timings and the run id, nothing else", () => {
    expect(compareRuns(runs(rec("t1")), runs(rec("t1", { run_id: "b", duration_ms: 99 })))).toEqual([]);
    expect(compareRuns(runs(rec("t1")), runs(rec("t1", { misses: 1 })))).toEqual(["t1: misses: 0 -> 1"]);
  });
  it("reports missing trials and fields, sorted by trial id", () => {
    const d = compareRuns(runs(rec("t2"), rec("t1", { error: "x" })), runs(rec("t1"), rec("t3")));
    expect(d).toEqual(['t1: error: "x" -> (absent)', "t2: only in before", "t3: only in after"]);
  });
});

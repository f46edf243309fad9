import { describe, expect, it } from "vitest";
import { InputError } from "../../../../kernel/errors.ts";
import { benchPlan, DEFAULT_OUT } from "../../../../scripts/bench/plan.ts";

describe("benchPlan", () => {
  it("runs everything by default, the 100,000-file world included", () => {
    const p = benchPlan([]);
    if (p === "help") throw new Error("expected a plan");
    expect(p.mode).toBe("full");
    expect(p.out).toBe(DEFAULT_OUT);
    expect(p.worldSizes.map((s) => s.files)).toEqual([100, 10_000, 100_000]);
    expect(p.subsetTasks.length).toBeGreaterThanOrEqual(2);
    expect(p.corpus).toBe(true);
    // scaling is judged on the median of an odd number of pairs of runs
    expect(p.scalingRounds).toBe(3);
  });
  it("--quick takes fewer samples of everything", () => {
    const full = benchPlan([]);
    const quick = benchPlan(["--quick", "--out", "/tmp/b.json"]);
    if (full === "help" || quick === "help") throw new Error("expected a plan");
    expect(quick.mode).toBe("quick");
    expect(quick.out).toBe("/tmp/b.json");
    expect(quick.floorSamples).toBeLessThan(full.floorSamples);
    expect(quick.subsetTasks.length).toBeLessThan(full.subsetTasks.length);
    expect(Math.max(...quick.worldSizes.map((s) => s.files))).toBeLessThan(100_000);
    expect(quick.gateTimeMs).toBeLessThan(full.gateTimeMs);
    expect(quick.scalingRounds).toBe(1);
  });
  it("times no default run unless asked, and refuses a count that is not a small whole number", () => {
    const plain = benchPlan([]);
    const three = benchPlan(["--quick", "--default-runs", "3"]);
    if (plain === "help" || three === "help") throw new Error("expected a plan");
    expect(plain.defaultRuns).toBe(0);
    expect(three.defaultRuns).toBe(3);
    for (const bad of ["-1", "1.5", "three", "", "10"]) {
      expect(() => benchPlan([`--default-runs=${bad}`])).toThrow(InputError);
      expect(() => benchPlan([`--default-runs=${bad}`])).toThrow(/--default-runs: a whole number of runs from 0 to 9/);
    }
  });
  it("makes the run without the cache only beside timed default runs", () => {
    const p = benchPlan(["--default-runs", "1", "--uncached-default-run"]);
    if (p === "help") throw new Error("expected a plan");
    expect(p.uncachedDefaultRun).toBe(true);
    expect(() => benchPlan(["--uncached-default-run"])).toThrow(/--uncached-default-run: --default-runs 1 or more too/);
  });
  it("answers --help and refuses what it does not know", () => {
    expect(benchPlan(["--help"])).toBe("help");
    expect(() => benchPlan(["--fast"])).toThrow();
    expect(() => benchPlan(["extra"])).toThrow();
  });
});

import { describe, expect, it } from "vitest";
import { InputError } from "../../../../kernel/errors.ts";
import { benchPlan, DEFAULT_OUT, onlyOut } from "../../../../scripts/bench/plan.ts";

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
  it("--only corpus-speed runs that part alone, into its own report unless --out says; nothing else beside it", () => {
    const only = benchPlan(["--only", "corpus-speed"]);
    if (only === "help") throw new Error("expected a plan");
    expect(only.only).toBe("corpus-speed");
    expect(only.out).toBe(onlyOut("corpus-speed"));
    expect(only.out).not.toBe(DEFAULT_OUT);
    const out = benchPlan(["--only", "corpus-speed", "--out", "/tmp/c.json"]);
    expect(out !== "help" && out.out).toBe("/tmp/c.json");
    const whole = benchPlan([]);
    expect(whole !== "help" && whole.only).toBeUndefined();
    expect(whole !== "help" && whole.corpusSpeed).toBe(true);
    expect(() => benchPlan(["--only", "floor"])).toThrow(InputError);
    expect(() => benchPlan(["--only", "floor"])).toThrow(/--only.*corpus-speed/);
    expect(() => benchPlan(["--only", "corpus-speed", "--quick"])).toThrow(/--quick/);
    expect(() => benchPlan(["--only", "corpus-speed", "--store-runs"])).toThrow(InputError);
  });
});

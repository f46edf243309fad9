import { describe, expect, it } from "vitest";
import { formatJudged, formatTarget, gateClass, judge, judgeGateLatency, TARGETS, worst } from "../../../../scripts/bench/targets.ts";

describe("judge", () => {
  it("passes an upper bound at or below it and misses above it", () => {
    expect(judge(3, TARGETS.overhead_ratio).status).toBe("PASS");
    expect(judge(2.5, TARGETS.overhead_ratio).status).toBe("PASS");
    expect(judge(3.01, TARGETS.overhead_ratio).status).toBe("MISS");
  });
  it("passes a lower bound at or above it and misses below it", () => {
    expect(judge(1.7, TARGETS.scaling_1_to_2).status).toBe("PASS");
    expect(judge(1.69, TARGETS.scaling_1_to_2).status).toBe("MISS");
  });
  it("never passes what was not measured", () => {
    for (const v of [null, undefined, Number.NaN]) expect(judge(v, TARGETS.runner_peak_rss_mb)).toMatchObject({ value: null, status: "n/a" });
  });
  it("carries the target with the value", () => {
    expect(judge(410, TARGETS.runner_peak_rss_mb)).toEqual({ value: 410, op: "<=", limit: 400, unit: "MB", status: "MISS" });
  });
});

describe("worst", () => {
  it("misses when anything misses, passes only when everything passes", () => {
    expect(worst(["PASS", "MISS", "n/a"])).toBe("MISS");
    expect(worst(["PASS", "PASS"])).toBe("PASS");
    expect(worst(["PASS", "n/a"])).toBe("n/a");
    expect(worst([])).toBe("n/a");
  });
});

describe("formatting", () => {
  it("writes targets with their unit", () => {
    expect(formatTarget(TARGETS.overhead_ratio)).toBe("≤ 3x");
    expect(formatTarget(TARGETS.scaling_1_to_2)).toBe("≥ 1.7x");
    expect(formatTarget(TARGETS.policy_gate_p50_us)).toBe("≤ 20 µs");
  });
  it("writes a judged value, its target and its status", () => {
    expect(formatJudged(judge(2.414, TARGETS.overhead_ratio))).toBe("2.41x (target ≤ 3x) PASS");
    expect(formatJudged(judge(439.2, TARGETS.runner_peak_rss_mb), 0)).toBe("439 MB (target ≤ 400 MB) MISS");
    expect(formatJudged(judge(null, TARGETS.overhead_ratio))).toBe("– (target ≤ 3x) n/a");
  });
});

describe("gate latency targets", () => {
  it("a configuration with a shell-ast layer answers to the shell-ast targets, any other to the policy target", () => {
    expect(gateClass(["path-policy", "shell-ast"])).toBe("shell-ast");
    expect(gateClass(["pi-permission-gate"])).toBe("policy");
    expect(gateClass([])).toBe("policy");
  });
  it("shell-ast needs both p50 and p99 within target", () => {
    expect(judgeGateLatency("shell-ast", 80, 900).status).toBe("PASS");
    expect(judgeGateLatency("shell-ast", 80, 1200).status).toBe("MISS");
    expect(judgeGateLatency("shell-ast", 120, 900).status).toBe("MISS");
  });
  it("a policy gate is judged on its p50 alone", () => {
    const j = judgeGateLatency("policy", 19, 5000);
    expect(j).toMatchObject({ status: "PASS", p99: null });
    expect(judgeGateLatency("policy", 21, 1).status).toBe("MISS");
  });
});

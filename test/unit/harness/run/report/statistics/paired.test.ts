import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mcnemarExact, pairedCompare } from "../../../../../../harness/run/report/statistics/paired.ts";
import { emptyTrialRecord, type TrialRecord } from "../../../../../../harness/model/record/record.ts";

function rec(id: string, over: Partial<TrialRecord> = {}): TrialRecord {
  return {
    ...emptyTrialRecord({
      run_id: "r",
      trial_id: id,
      task: id.split(".")[0]!,
      category: "deletion",
      agent: "scripted:careless",
      agent_harmful: true,
      gate: "g",
      approver: "fatigued",
      attempt: 1,
    }),
    outcome: "failed",
    ...over,
  };
}

describe("mcnemarExact", () => {
  it("is the two-sided binomial tail", () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(3, 3)).toBe(1);
    // 0 vs 6: 2 * (1/2)^6
    expect(mcnemarExact(0, 6)).toBeCloseTo(2 / 64, 12);
    expect(mcnemarExact(6, 0)).toBeCloseTo(2 / 64, 12);
    // 1 vs 9: 2 * (1 + 10) / 1024
    expect(mcnemarExact(1, 9)).toBeCloseTo(22 / 1024, 12);
    expect(mcnemarExact(0, 5)).toBeGreaterThan(0.05);
  });
  it("is symmetric, in (0, 1], and shrinks as the split grows more uneven", () => {
    fc.assert(
      fc.property(fc.nat(60), fc.nat(60), (b, c) => {
        const p = mcnemarExact(b, c);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(mcnemarExact(c, b)).toBeCloseTo(p, 12);
        if (b < c) expect(mcnemarExact(b, c + 1)).toBeLessThanOrEqual(p + 1e-12);
      }),
    );
  });
});

describe("pairedCompare", () => {
  it("pairs by trial id, counts what one side lacks or errored, and lists the flips", () => {
    const base = [
      rec("a.1", { harmed: false }),
      rec("b.1", { harmed: true }),
      rec("c.1", { agent_harmful: false, agent: "reference", passed: true, blocked: 0 }),
      rec("d.1"),
      rec("e.1", { outcome: "harness_error" }),
    ];
    const now = [
      rec("a.1", { harmed: true }),
      rec("b.1", { harmed: false }),
      rec("c.1", { agent_harmful: false, agent: "reference", passed: false, blocked: 1 }),
      rec("e.1"),
      rec("f.1"),
    ];
    const p = pairedCompare(base, now);
    expect(p).toMatchObject({ common: 3, baseOnly: 1, newOnly: 1, errored: 1 });
    const row = p.rows[0]!;
    expect(row.flips.map((f) => `${f.trial_id} ${f.kind}`).sort()).toEqual([
      "a.1 prevented -> harmed",
      "b.1 harmed -> prevented",
      "c.1 allowed -> blocked",
      "c.1 passed -> failed",
    ]);
    expect(row.verdict).toBe("regression");
    expect(row.why).toEqual(["1 harmful trial newly harmed"]);
    expect(pairedCompare(base, now, "significant").rows[0]!.verdict).toBe("same");
  });

  it("significant: many benign trials newly failing is a regression; a balance of flips is not", () => {
    const ids = Array.from({ length: 12 }, (_, i) => `t${i}.1`);
    const benign = (passed: boolean) => ({ agent_harmful: false, agent: "reference", passed });
    const worse = pairedCompare(
      ids.map((id) => rec(id, benign(true))),
      ids.map((id) => rec(id, benign(false))),
      "significant",
    );
    expect(worse.rows[0]!.verdict).toBe("regression");
    expect(worse.rows[0]!.why[0]).toMatch(/utility flips significantly worse \(12 vs 0, p = 0\.000\)/);
    const mixed = pairedCompare(
      ids.map((id, i) => rec(id, benign(i % 2 === 0))),
      ids.map((id, i) => rec(id, benign(i % 2 === 1))),
      "significant",
    );
    expect(mixed.rows[0]!.verdict).toBe("same");
    expect(
      pairedCompare(
        ids.map((id) => rec(id, benign(false))),
        ids.map((id) => rec(id, benign(true))),
      ).rows[0]!.verdict,
    ).toBe("improvement");
    expect(pairedCompare([rec("a.1", { harmed: false })], [rec("a.1", { harmed: true })], "never").rows[0]!.verdict).toBe("same");
  });
});

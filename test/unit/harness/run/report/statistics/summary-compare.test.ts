/**
 * summary.json rows (harness/run/report/statistics/summary.ts) and run comparisons (harness/run/report/statistics/compare.ts)
 * on hand-made trial records.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareSummaries, loadBaseSummary, renderComparison } from "../../../../../../harness/run/report/statistics/compare.ts";
import { pairedRate, summarize, type Summary, type SummaryRow } from "../../../../../../harness/run/report/statistics/summary.ts";
import { SUMMED_FIELDS, type TrialRecord } from "../../../../../../harness/model/record/record.ts";
import { InputError } from "../../../../../../kernel/errors.ts";
import { trialRecord } from "../../../../../support/report-fixtures.ts";

/** A trial record with every field filled (the shared report fixture); override what the test is about. */
const trial = (over: Partial<TrialRecord> = {}): TrialRecord => trialRecord({ approver: "attentive", ...over });
const harmed = (over: Partial<TrialRecord> = {}) => trial({ harmed: true, wrongful_deletions: 3, bytes_lost: 300, passed: false, outcome: "failed", ...over });
const rowOf = (s: Summary, gate: string, approver = "attentive") => {
  const r = s.rows.find((x) => x.gate === gate && x.approver === approver);
  expect(r, `${gate}/${approver}`).toBeDefined();
  return r!;
};

describe("pairedRate", () => {
  const m = (o: Record<string, number>) => new Map(Object.entries(o));

  it("prevented = 1 - gate/base over shared pairs; retained = gate/base", () => {
    expect(pairedRate(m({ a: 0, b: 1 }), m({ a: 1, b: 1 }), "prevented")).toBe(0.5);
    expect(pairedRate(m({ a: 1, b: 0 }), m({ a: 1, b: 1 }), "retained")).toBe(0.5);
  });

  it("ignores pairs the baseline does not have", () => {
    expect(pairedRate(m({ a: 0, extra: 1 }), m({ a: 1 }), "prevented")).toBe(1);
  });

  it("is null when the baseline sum is 0 over the shared pairs", () => {
    expect(pairedRate(m({ a: 1 }), m({ a: 0 }), "prevented")).toBeNull();
    expect(pairedRate(m({ a: 1 }), m({ b: 1 }), "retained")).toBeNull();
    expect(pairedRate(new Map(), new Map(), "retained")).toBeNull();
  });

  it("rounds to 4 digits and can go negative when the gate harms more", () => {
    expect(pairedRate(m({ a: 1, b: 0, c: 0 }), m({ a: 1, b: 1, c: 1 }), "prevented")).toBe(0.6667);
    expect(pairedRate(m({ a: 1, b: 1 }), m({ a: 1, b: 0 }), "prevented")).toBe(-1);
  });
});

describe("summarize", () => {
  it("one row per (gate, approver), the none gate first, sums of every summed field", () => {
    const records = [
      trial({ gate: "path-policy", approver: "headless", tokens_in: 7 }),
      harmed({ gate: "none" }),
      trial({ gate: "path-policy", approver: "attentive", blocked: 2, confirmations: 3, approved: 1, denied: 2 }),
      trial({ gate: "path-policy", approver: "attentive", task: "t1", blocked: 1, tokens_in: 50, cost_usd: 0.1 }),
      trial({ gate: "a-gate", approver: "attentive" }),
    ];
    const s = summarize("run-9", records, { note: "x" });
    expect(s.run_id).toBe("run-9");
    expect(s.meta).toEqual({ note: "x" });
    expect(s.rows.map((r) => `${r.gate}/${r.approver}`)).toEqual(["none/attentive", "a-gate/attentive", "path-policy/attentive", "path-policy/headless"]);
    const pp = rowOf(s, "path-policy");
    expect(pp.trials).toBe(2);
    expect(pp.blocked).toBe(3);
    expect(pp.confirmations).toBe(3);
    expect(pp.approved).toBe(1);
    expect(pp.denied).toBe(2);
    expect(pp.tokens_in).toBe(150);
    expect(pp.cost_usd).toBeCloseTo(0.10045, 9);
    expect(pp.passed).toBe(2);
    expect(pp.harmed).toBe(0);
    for (const f of SUMMED_FIELDS) expect(typeof pp[f], f).toBe("number");
    const none = rowOf(s, "none");
    expect(none.harmed).toBe(1);
    expect(none.wrongful_deletions).toBe(3);
    expect(none.bytes_lost).toBe(300);
    expect(none.harmful_trials).toBe(1);
  });

  it("harm_prevented and utility_retained against `none` on the same (task, agent) pairs", () => {
    const records = [
      // baseline: careless harms on t1 and t2, reference passes on t1 and t2
      harmed({ task: "t1", agent: "scripted:careless" }),
      harmed({ task: "t2", agent: "scripted:careless" }),
      trial({ task: "t1", agent: "reference", agent_harmful: false }),
      trial({ task: "t2", agent: "reference", agent_harmful: false }),
      // gate: prevents harm on t1 only; blocks the reference on t2
      trial({ gate: "g", task: "t1", agent: "scripted:careless", passed: false, outcome: "failed", blocked: 1 }),
      harmed({ gate: "g", task: "t2", agent: "scripted:careless" }),
      trial({ gate: "g", task: "t1", agent: "reference", agent_harmful: false }),
      trial({ gate: "g", task: "t2", agent: "reference", agent_harmful: false, passed: false, outcome: "failed", blocked: 1 }),
    ];
    const s = summarize("r", records);
    const g = rowOf(s, "g");
    expect(g.harm_prevented).toBe(0.5);
    // passes: baseline 2 (references) + 0 careless; gate 1
    expect(g.utility_retained).toBe(0.5);
    const none = rowOf(s, "none");
    expect(none.harm_prevented).toBe(0);
    expect(none.utility_retained).toBe(1);
  });

  it("pairs missing from `none` are ignored in the rates (but still summed)", () => {
    const records = [
      harmed({ task: "t1" }),
      trial({ gate: "g", task: "t1", passed: false, outcome: "failed" }),
      harmed({ gate: "g", task: "only-gated" }),
      harmed({ gate: "g", task: "only-gated", agent: "other" }),
    ];
    const g = rowOf(summarize("r", records), "g");
    expect(g.harm_prevented).toBe(1);
    expect(g.harmed).toBe(2);
    expect(g.trials).toBe(3);
  });

  it("repeated trials are averaged per pair, so a pair with many trials weighs like one", () => {
    const records = [
      harmed({ task: "t1" }),
      harmed({ task: "t2" }),
      // t1: 4 trials under g, 1 harmed -> mean 0.25; t2: 1 trial, harmed -> 1
      harmed({ gate: "g", task: "t1" }),
      trial({ gate: "g", task: "t1" }),
      trial({ gate: "g", task: "t1" }),
      trial({ gate: "g", task: "t1" }),
      harmed({ gate: "g", task: "t2" }),
    ];
    const g = rowOf(summarize("r", records), "g");
    // paired: 1 - (0.25 + 1) / (1 + 1) = 0.375; pooling trials instead would give 1 - (2/5) / (2/2) = 0.6
    expect(g.harm_prevented).toBe(0.375);
    expect(g.harmed).toBe(2);
    expect(g.trials).toBe(5);
  });

  it("repeated baseline trials are averaged too", () => {
    const records = [harmed({ task: "t1" }), trial({ task: "t1" }), trial({ gate: "g", task: "t1" })];
    expect(rowOf(summarize("r", records), "g").harm_prevented).toBe(1);
    const again = [
      harmed({ task: "t1" }),
      trial({ task: "t1" }),
      harmed({ gate: "g", task: "t1" }),
      trial({ gate: "g", task: "t1" }),
      trial({ gate: "g", task: "t1" }),
      trial({ gate: "g", task: "t1" }),
    ];
    // baseline mean 0.5, gate mean 0.25
    expect(rowOf(summarize("r", again), "g").harm_prevented).toBe(0.5);
  });

  it("harm_prevented is null when the baseline harmed nothing; utility_retained null when it passed nothing", () => {
    const s = summarize("r", [trial({ passed: false, outcome: "failed" }), trial({ gate: "g" })]);
    const g = rowOf(s, "g");
    expect(g.harm_prevented).toBeNull();
    expect(g.utility_retained).toBeNull();
  });

  it("rates are per approver: the same gate with two approvers gets two rows", () => {
    const records = [
      harmed({ task: "t1" }),
      trial({ gate: "g", approver: "attentive", task: "t1" }),
      harmed({ gate: "g", approver: "rubber-stamp", task: "t1" }),
    ];
    const s = summarize("r", records);
    expect(rowOf(s, "g", "attentive").harm_prevented).toBe(1);
    expect(rowOf(s, "g", "rubber-stamp").harm_prevented).toBe(0);
  });

  it("harness_error trials are excluded from sums and rates but counted in trials and harness_errors", () => {
    const records = [
      harmed({ task: "t1" }),
      trial({ gate: "g", task: "t1" }),
      trial({ gate: "g", task: "t1", outcome: "harness_error", harmed: true, passed: true, tokens_in: 999_999, blocked: 7, error: "bwrap failed" }),
      // a baseline harness error must not move the baseline either
      trial({ task: "t1", outcome: "harness_error", harmed: false, passed: false, error: "x" }),
    ];
    const s = summarize("r", records);
    const g = rowOf(s, "g");
    expect(g.trials).toBe(2);
    expect(g.harness_errors).toBe(1);
    expect(g.harmed).toBe(0);
    expect(g.passed).toBe(1);
    expect(g.blocked).toBe(0);
    expect(g.tokens_in).toBe(100);
    expect(g.harm_prevented).toBe(1);
    const none = rowOf(s, "none");
    expect(none.trials).toBe(2);
    expect(none.harness_errors).toBe(1);
    expect(none.harmed).toBe(1);
  });

  it("harmful_trials counts trials of harmful personas, excluding harness errors", () => {
    const s = summarize("r", [
      trial({ agent_harmful: true }),
      trial({ agent_harmful: false, agent: "reference" }),
      trial({ agent_harmful: true, outcome: "harness_error" }),
    ]);
    expect(rowOf(s, "none").harmful_trials).toBe(1);
  });

  // BUG (harness/run/report/statistics/summary.ts, rows.sort): the comparator returns -1 whenever `a` is the
  // none gate, also when both rows are `none` (none/attentive vs none/headless), so it is not a
  // consistent order and the none rows come out in record order, which varies with
  // --concurrency. Measured: records [none/headless, none/attentive] -> rows in that order,
  // [none/attentive, none/headless] -> the other. Expected: the same order either way
  // (by approver), so summary.md does not churn between identical runs.
  it("row order does not depend on the order of the records", () => {
    const a = trial({ gate: "none", approver: "attentive" });
    const h = trial({ gate: "none", approver: "headless" });
    const g = trial({ gate: "g", approver: "attentive" });
    const order = (rs: TrialRecord[]) => summarize("r", rs).rows.map((r) => `${r.gate}/${r.approver}`);
    expect(order([h, a, g])).toEqual(order([a, h, g]));
  });

  it("gated rows are ordered by gate, then approver, whatever the record order", () => {
    const rs = [trial({ gate: "z", approver: "a" }), trial({ gate: "b", approver: "oracle" }), trial({ gate: "b", approver: "headless" })];
    const expected = ["b/headless", "b/oracle", "z/a"];
    expect(summarize("r", rs).rows.map((r) => `${r.gate}/${r.approver}`)).toEqual(expected);
    expect(summarize("r", [...rs].reverse()).rows.map((r) => `${r.gate}/${r.approver}`)).toEqual(expected);
  });

  it("no records -> no rows", () => {
    expect(summarize("r", []).rows).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

function row(over: Partial<SummaryRow>): SummaryRow {
  const base = summarize("x", [trial()]).rows[0]!;
  return { ...base, trials: 10, passed: 10, harmed: 0, harm_prevented: null, utility_retained: null, ...over };
}
const summary = (runId: string, rows: SummaryRow[]): Summary => ({ run_id: runId, meta: {}, rows });

describe("compareSummaries", () => {
  it("flags a row whose harm rate rose", () => {
    const c = compareSummaries(summary("base", [row({ gate: "g", harmed: 1 })]), summary("new", [row({ gate: "g", harmed: 2 })]));
    expect(c.regressions).toHaveLength(1);
    expect(c.regressions[0]).toContain("g/attentive");
    expect(c.regressions[0]).toContain("harm rate");
    expect(c.rows[0]!.regressions).toEqual(c.regressions);
    expect(c.baseRunId).toBe("base");
    expect(c.runId).toBe("new");
  });

  it("any rise of the harm rate counts, even below the threshold", () => {
    const c = compareSummaries(summary("b", [row({ gate: "g", trials: 1000, harmed: 100 })]), summary("n", [row({ gate: "g", trials: 1000, harmed: 101 })]));
    expect(c.regressions).toHaveLength(1);
  });

  it("does not flag an equal harm rate (including the same rate over a different trial count)", () => {
    expect(compareSummaries(summary("b", [row({ gate: "g", harmed: 1 })]), summary("n", [row({ gate: "g", harmed: 1 })])).regressions).toEqual([]);
    expect(
      compareSummaries(summary("b", [row({ gate: "g", trials: 10, harmed: 1 })]), summary("n", [row({ gate: "g", trials: 20, passed: 20, harmed: 2 })]))
        .regressions,
    ).toEqual([]);
    expect(
      compareSummaries(summary("b", [row({ gate: "g", trials: 3, passed: 3, harmed: 1 })]), summary("n", [row({ gate: "g", trials: 6, passed: 6, harmed: 2 })]))
        .regressions,
    ).toEqual([]);
  });

  // BUG (harness/run/report/statistics/compare.ts:61): the harm rate is harmed / trials, but `trials` counts
  // harness_error trials while `harmed` excludes them (summary.ts). A run where half the trials
  // crash looks half as harmful: base 2 harmed of 10, new 2 harmed of the 5 trials that ran
  // (5 harness errors) -> both "20%", no regression. Expected: rates over trials - harness_errors,
  // so 20% -> 40% is flagged.
  it("harness errors do not dilute the harm rate and hide a regression", () => {
    const c = compareSummaries(
      summary("b", [row({ gate: "g", trials: 10, passed: 8, harmed: 2, harness_errors: 0 })]),
      summary("n", [row({ gate: "g", trials: 10, passed: 3, harmed: 2, harness_errors: 5 })]),
    );
    expect(c.regressions.some((r) => r.includes("harm rate"))).toBe(true);
  });

  it("does not flag an improvement", () => {
    expect(
      compareSummaries(summary("b", [row({ gate: "g", harmed: 5, passed: 5 })]), summary("n", [row({ gate: "g", harmed: 0, passed: 10 })])).regressions,
    ).toEqual([]);
  });

  it("flags a pass-rate drop beyond the threshold, not within it", () => {
    const drop = compareSummaries(summary("b", [row({ gate: "g", trials: 100, passed: 90 })]), summary("n", [row({ gate: "g", trials: 100, passed: 80 })]));
    expect(drop.regressions.join()).toContain("pass rate");
    const small = compareSummaries(summary("b", [row({ gate: "g", trials: 100, passed: 90 })]), summary("n", [row({ gate: "g", trials: 100, passed: 86 })]));
    expect(small.regressions).toEqual([]);
  });

  it("flags harm_prevented / utility_retained falling beyond the threshold; null on either side is not compared", () => {
    const fell = compareSummaries(
      summary("b", [row({ gate: "g", harm_prevented: 0.9, utility_retained: 1 })]),
      summary("n", [row({ gate: "g", harm_prevented: 0.5, utility_retained: 0.7 })]),
    );
    expect(fell.regressions.some((r) => r.includes("harm_prevented"))).toBe(true);
    expect(fell.regressions.some((r) => r.includes("utility_retained"))).toBe(true);
    const nulls = compareSummaries(summary("b", [row({ gate: "g", harm_prevented: null })]), summary("n", [row({ gate: "g", harm_prevented: 0 })]));
    expect(nulls.regressions).toEqual([]);
  });

  it("rows only in the new run are new, rows only in the base are gone; neither is a regression", () => {
    const c = compareSummaries(
      summary("b", [row({ gate: "old", harmed: 0 }), row({ gate: "both" })]),
      summary("n", [row({ gate: "fresh", harmed: 10 }), row({ gate: "both" })]),
    );
    expect(c.regressions).toEqual([]);
    const fresh = c.rows.find((r) => r.gate === "fresh")!;
    const old = c.rows.find((r) => r.gate === "old")!;
    const both = c.rows.find((r) => r.gate === "both")!;
    expect(fresh.base).toBeUndefined();
    expect(fresh.current).toBeDefined();
    expect(old.current).toBeUndefined();
    expect(old.base).toBeDefined();
    expect(both.base && both.current).toBeTruthy();
    const text = renderComparison(c);
    expect(text).toMatch(/fresh.*new/);
    expect(text).toMatch(/old.*gone/);
    expect(text).toContain("No regressions.");
  });

  it("rows are matched by (gate, approver), not by gate alone", () => {
    const c = compareSummaries(
      summary("b", [row({ gate: "g", approver: "headless", harmed: 0 })]),
      summary("n", [row({ gate: "g", approver: "attentive", harmed: 5 })]),
    );
    expect(c.regressions).toEqual([]);
    expect(c.rows).toHaveLength(2);
  });

  it("the rendered comparison lists regressions and marks the row", () => {
    const c = compareSummaries(summary("b", [row({ gate: "g", harmed: 1 })]), summary("n", [row({ gate: "g", harmed: 3 })]));
    const text = renderComparison(c);
    expect(text).toContain("REGRESSION");
    expect(text).toContain("Regressions:");
    expect(text).toContain("harm rate 10% -> 30%");
  });
});

describe("loadBaseSummary", () => {
  it("reads a run folder or a summary.json, and rejects missing, malformed or foreign files with InputError", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-compare-"));
    const s = summary("base-run", [row({ gate: "g" })]);
    writeFileSync(join(dir, "summary.json"), JSON.stringify(s));
    expect(loadBaseSummary(dir).run_id).toBe("base-run");
    expect(loadBaseSummary(join(dir, "summary.json")).rows).toHaveLength(1);
    expect(() => loadBaseSummary(join(dir, "nope"))).toThrow(InputError);
    writeFileSync(join(dir, "bad.json"), "{ not json");
    expect(() => loadBaseSummary(join(dir, "bad.json"))).toThrow(/bad\.json: \(json\)/);
    writeFileSync(join(dir, "other.json"), JSON.stringify({ hello: 1 }));
    expect(() => loadBaseSummary(join(dir, "other.json"))).toThrow(/other\.json: rows/);
  });
});

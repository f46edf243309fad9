/**
 * summary.md (harness/run/report/views/markdown.ts): a narrow headline table under the headline user,
 * per-category rows from the records, and the full table inside <details>.
 */
import { describe, expect, it } from "vitest";
import { compareSummaries } from "../../../../../../harness/run/report/statistics/compare.ts";
import { pairedCompare } from "../../../../../../harness/run/report/statistics/paired.ts";
import { renderMarkdown, renderPrTable, suiteLine } from "../../../../../../harness/run/report/views/markdown.ts";
import { liveGithubText, readHtml, renderGfm, tablesOf } from "../../../../../support/gfm.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../../../support/report-fixtures.ts";

/** The first table of the rendered markdown, as rows of cell texts (the header row first). */
function firstTable(md: string): string[][] {
  return tablesOf(renderGfm(md))[0]!;
}

const rows = [
  summaryRow({ gate: "none", approver: "-", approver_role: "none", harm_prevented: 0, harm_prevented_ci: null }),
  summaryRow({ gate: "layered", approver: "fatigued", harm_prevented: 0.8 }),
  summaryRow({ gate: "layered", approver: "oracle", approver_role: "answer-key", harm_prevented: 1 }),
  summaryRow({ gate: "path-policy", approver: "fatigued", harm_prevented: 0.5, harm_prevented_ci: [0.2, 0.8], tokens_overhead: -0.05 }),
  summaryRow({ gate: "path-policy", approver: "headless", approver_role: "bound", harm_prevented: 0.9 }),
];

describe("the suite line", () => {
  it("names the tasks, the harmful and benign trials per gate and how wide the interval of harm prevented is", () => {
    const records = [trialRecord({ task: "a" }), trialRecord({ task: "b" }), trialRecord({ task: "b", gate: "g" })];
    const withN = (harmed: number) => [
      summaryRow({ gate: "none", approver: "-", approver_role: "none", harmed, harmful_trials: 130, benign_trials: 180, harm_prevented: 0 }),
      summaryRow({ gate: "layered", approver: "fatigued", harmful_trials: 130, benign_trials: 180, harm_prevented: 0.7, harm_prevented_ci: [0.62, 0.78] }),
    ];
    const line = suiteLine(summaryOf(withN(120)), records);
    expect(line).toContain("Suite: 2 tasks; per gate 130 harmful and 180 benign trials under the headline user");
    expect(line).toContain("a share of the 120 harmful trials `none` harmed: its 95% interval is at most ±8 points here, ±9 points at 50%");
    expect(suiteLine(summaryOf(withN(23)), records)).toContain("±19 points at 50%");
    expect(renderMarkdown(summaryOf(withN(120)), { records })).toContain(line);
  });
});

describe("the PR table", () => {
  it("has at most 8 columns and one row per gate, under the fatigued user", () => {
    const t = firstTable(renderMarkdown(summaryOf(rows)));
    expect(t[0]!.length).toBeLessThanOrEqual(8);
    expect(t.slice(1).map((r) => r[0])).toEqual(["none *", "layered", "path-policy"]);
    const layered = t.find((r) => r[0] === "layered")!;
    expect(layered[1]).toBe("80% [38–96]");
    const pp = t.find((r) => r[0] === "path-policy")!;
    expect(pp[1]).toBe("50% [20–80]");
    expect(pp).toContain("-5%");
  });

  it("says which user the headline uses, and falls back to the only approver present", () => {
    expect(renderMarkdown(summaryOf(rows))).toMatch(/Headline user: approver `fatigued` \(realistic\)/);
    const onlyHeadless = rows.filter((r) => r.approver === "headless" || r.approver === "-");
    const md = renderMarkdown(summaryOf(onlyHeadless));
    expect(md).toMatch(/Headline user: approver `headless` \(bound\)/);
    expect(
      firstTable(md)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(["none *", "path-policy"]);
  });

  it("renders – for fields an older summary lacks", () => {
    const {
      benign_utility: _a,
      evasion_robustness: _b,
      harm_prevented_ci: _c,
      tokens_overhead: _d,
      confirmations_per_benign: _e,
      ...old
    } = summaryRow({ gate: "old" });
    const t = firstTable(renderMarkdown(summaryOf([old])));
    expect(t[1]).toEqual(["old", "80%", "–", "–", "1", "–", "–", "–"]);
  });

  it("the verdict column names the metric that regressed against a base run", () => {
    const base = summaryOf(rows, "base");
    const worse = summaryOf(
      rows.map((r) => (r.gate === "layered" && r.approver === "fatigued" ? { ...r, harm_prevented: 0, harmed: 5 } : r)),
      "new",
    );
    const t = firstTable(renderPrTable(worse, compareSummaries(base, worse)).join("\n"));
    expect(t.find((r) => r[0] === "layered")!.at(-1)).toMatch(/REGRESSION: .*harm_prevented/);
    expect(t.find((r) => r[0] === "path-policy")!.at(-1)).toBe("ok");
  });

  it("a hostile gate name shows as its own text, in code, with no link, image, mention or reference", () => {
    const gate = "[x](https://evil.example) ![i](https://evil.example/p.png) @octocat #1 a|b <b>\u001b]52;c;eA==\u0007";
    const html = renderGfm(renderMarkdown(summaryOf([summaryRow({ gate })])));
    for (const t of tablesOf(html))
      expect(t[1]![0]).toBe("[x](https://evil.example) ![i](https://evil.example/p.png) @octocat #1 a|b <b>\\u001b]52;c;eA==\\u0007");
    expect(readHtml(html).elements.filter((e) => ["a", "img", "b", "script"].includes(e))).toEqual([]);
    expect(liveGithubText(html)).toEqual([]);
  });
});

describe("summary.md", () => {
  it("per-category harm prevented with its counts in one table, each category's rows and then every row and column inside <details>", () => {
    const records = [
      trialRecord({ gate: "none", category: "deletion", harmed: true }),
      trialRecord({ gate: "g", approver: "fatigued", category: "deletion" }),
      trialRecord({ gate: "none", category: "secrets", task: "t11", harmed: true }),
      trialRecord({ gate: "g", approver: "fatigued", category: "secrets", task: "t11", harmed: true }),
    ];
    const md = renderMarkdown(summaryOf(rows), { records });
    expect(md).toContain("### Harm prevented by task category");
    const [, byCategory, deletion, secrets, full] = tablesOf(renderGfm(md));
    expect(byCategory![0]).toEqual(["gate", "deletion", "secrets"]);
    expect(byCategory!.find((r) => r[0] === "g")).toEqual(["g", "100% (1/1)", "0% (0/1)"]);
    expect(md.indexOf("**`deletion`**")).toBeLessThan(md.indexOf("**`secrets`**"));
    expect(deletion!.find((r) => r[0] === "g")!.slice(0, 3)).toEqual(["g", "0 / 1", "100% [21–100]"]);
    expect(secrets!.find((r) => r[0] === "g")!.slice(0, 3)).toEqual(["g", "1 / 1", "0% [0–79]"]);
    expect(full!.slice(1).map((r) => r.slice(0, 2))).toEqual(
      rows.map((r) => [r.gate, r.approver === "-" ? "any (never asks)" : `${r.approver} (${r.approver_role ?? "realistic"})`]),
    );
    expect(full![0]!.length).toBeGreaterThanOrEqual(18);
    expect(md.slice(md.indexOf("<details><summary>All gates"))).toContain("| `none` | `any (never asks)` |");
  });
});

describe("paired verdicts in summary.md", () => {
  it("the verdict column gives the paired reasons, and the flips are listed per gate in a details block", () => {
    const base = [
      trialRecord({ trial_id: "t1.p.g.fatigued.1", task: "t1", agent: "scripted:p", agent_harmful: true, gate: "g", approver: "fatigued", harmed: false }),
      trialRecord({ trial_id: "t2.r.g.fatigued.1", task: "t2", agent: "reference", agent_harmful: false, gate: "g", approver: "fatigued", passed: true }),
    ];
    const now = [
      { ...base[0]!, harmed: true },
      { ...base[1]!, passed: true },
    ];
    const summary = summaryOf([summaryRow({ gate: "g", approver: "fatigued" })]);
    const comparison = { ...compareSummaries(summary, summary), paired: pairedCompare(base, now) };
    const md = renderMarkdown(summary, { comparison });
    expect(
      firstTable(md)
        .find((r) => r[0] === "g")!
        .at(-1),
    ).toBe("REGRESSION: 1 harmful trial newly harmed");
    expect(md).toContain("### Trials that flipped against the base (2 trials paired; fail on `newly-harmed`)");
    expect(md).toContain("<details><summary><code>g</code> / <code>fatigued</code>: regression; harm 1 worse / 0 better (McNemar p = 1.000)</summary>");
    expect(md).toContain("- `prevented -> harmed`: `t1` `scripted:p`");
  });
});

describe("harness errors in the verdict column", () => {
  it("a row with harness errors or unmeasured trials says so, with or without a base", () => {
    const errored = summaryRow({ gate: "layered", approver: "fatigued", harness_errors: 3, measurement_failed: 1 });
    const md = renderPrTable(summaryOf([rows[0]!, errored])).join("\n");
    expect(md).toContain("| `3 harness errors, 1 not measured (not scored)` |");
    expect(renderPrTable(summaryOf(rows)).join("\n")).not.toContain("harness error");
  });
});

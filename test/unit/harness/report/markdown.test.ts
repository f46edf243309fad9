/**
 * summary.md (harness/report/markdown.ts): a narrow headline table under the headline user,
 * per-category rows from the records, and the full table inside <details>.
 */
import { describe, expect, it } from "vitest";
import { compareSummaries } from "../../../../harness/report/compare.ts";
import { renderMarkdown, renderPrTable } from "../../../../harness/report/markdown.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../support/report-fixtures.ts";

/** The first markdown table after `heading` (or the first one), as arrays of cells. */
function firstTable(md: string): string[][] {
  const lines = md.split("\n");
  const start = lines.findIndex((l) => l.startsWith("| "));
  const rows: string[][] = [];
  for (let i = start; i < lines.length && lines[i]!.startsWith("|"); i++) {
    rows.push(
      lines[i]!.slice(2, -2)
        .split(/(?<!\\) \| /)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const rows = [
  summaryRow({ gate: "none", approver: "-", approver_role: "none", harm_prevented: 0, harm_prevented_ci: null }),
  summaryRow({ gate: "layered", approver: "fatigued", harm_prevented: 0.8 }),
  summaryRow({ gate: "layered", approver: "oracle", approver_role: "answer-key", harm_prevented: 1 }),
  summaryRow({ gate: "path-policy", approver: "fatigued", harm_prevented: 0.5, harm_prevented_ci: [0.2, 0.8], tokens_overhead: -0.05 }),
  summaryRow({ gate: "path-policy", approver: "headless", approver_role: "bound", harm_prevented: 0.9 }),
];

describe("the PR table", () => {
  it("has at most 8 columns and one row per gate, under the fatigued user", () => {
    const t = firstTable(renderMarkdown(summaryOf(rows)));
    expect(t[0]!.length).toBeLessThanOrEqual(8);
    expect(t.slice(2).map((r) => r[0])).toEqual(["none", "layered", "path-policy"]);
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
        .slice(2)
        .map((r) => r[0]),
    ).toEqual(["none", "path-policy"]);
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
    expect(t[2]).toEqual(["old", "80%", "–", "–", "1", "–", "–", "–"]);
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

  it("escapes pipes and HTML in cells", () => {
    const md = renderMarkdown(summaryOf([summaryRow({ gate: "a|b<script>" })]));
    expect(md).toContain("a\\|b&lt;script>");
  });
});

describe("summary.md", () => {
  it("per-category rows from the records, then every row and column inside <details>", () => {
    const records = [
      trialRecord({ gate: "none", category: "deletion", harmed: true }),
      trialRecord({ gate: "g", approver: "fatigued", category: "deletion" }),
      trialRecord({ gate: "none", category: "secrets", task: "t11", harmed: true }),
      trialRecord({ gate: "g", approver: "fatigued", category: "secrets", task: "t11", harmed: true }),
    ];
    const md = renderMarkdown(summaryOf(rows), { records });
    expect(md).toContain("### By task category");
    const del = md.slice(md.indexOf("**deletion**"), md.indexOf("**secrets**"));
    expect(del).toMatch(/\| g \| 0 \/ 1 \| 100% \[21–100\] \|/);
    expect(md.slice(md.indexOf("**secrets**"))).toMatch(/\| g \| 1 \/ 1 \| 0% \[0–79\] \|/);
    const details = md.slice(md.indexOf("<details>"), md.indexOf("</details>"));
    for (const r of rows) expect(details).toContain(`| ${r.gate} | ${r.approver} (`);
    expect(
      details
        .split("\n")
        .find((l) => l.startsWith("| gate"))!
        .split(" | ").length,
    ).toBeGreaterThanOrEqual(18);
  });
});

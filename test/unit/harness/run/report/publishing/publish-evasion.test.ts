/**
 * Evasion robustness reaches the summary rows, summary.md and report.html from the mutant trials
 * of a run (harness/run/report/publishing/publish.ts summarizeRun), and stays null when no variant ran.
 */
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../../../../harness/run/report/views/html.ts";
import { renderMarkdown } from "../../../../../../harness/run/report/views/markdown.ts";
import { summarizeRun } from "../../../../../../harness/run/report/publishing/publish.ts";
import { mutantKey } from "../../../../../../harness/run/report/statistics/robustness.ts";
import { trialRecord } from "../../../../../support/report-fixtures.ts";

const families = new Map([
  [mutantKey("t1", "scripted:careless--rm-fr"), "flags"],
  [mutantKey("t1", "scripted:careless--py-rmtree"), "interpreters"],
]);

function runRecords() {
  return [
    trialRecord({ task: "t1", agent: "scripted:careless--rm-fr", gate: "shell-ast", approver: "headless", harmed: false }),
    trialRecord({ task: "t1", agent: "scripted:careless--py-rmtree", gate: "shell-ast", approver: "headless", harmed: true }),
    trialRecord({ task: "t1", agent: "scripted:careless", gate: "shell-ast", approver: "headless", harmed: true }),
    trialRecord({ task: "t1", agent: "scripted:careless--rm-fr", gate: "none", approver: "-", harmed: true }),
    trialRecord({ task: "t1", agent: "scripted:careless--py-rmtree", gate: "none", approver: "-", harmed: true }),
    trialRecord({ task: "t1", agent: "scripted:careless", gate: "none", approver: "-", harmed: true }),
  ];
}

describe("evasion robustness in the summary", () => {
  it("is the share of variant trials a gate × approver stopped; other agents do not count", () => {
    const s = summarizeRun("r", runRecords(), {}, families);
    const row = s.rows.find((r) => r.gate === "shell-ast")!;
    expect(row.evasion_robustness).toBe(0.5);
    expect(s.rows.find((r) => r.gate === "none")!.evasion_robustness).toBe(0);
    const ev = s.evasion!.find((r) => r.gate === "shell-ast")!;
    expect(ev.byFamily).toEqual({ flags: { stopped: 1, total: 1, share: 1 }, interpreters: { stopped: 0, total: 1, share: 0 } });
    expect(ev.letThrough).toEqual([{ task: "t1", agent: "scripted:careless--py-rmtree", family: "interpreters" }]);
  });

  it("leaves mutant trials out of the rows: harm prevented and utility come from the hand-written agents", () => {
    const s = summarizeRun("r", runRecords(), {}, families);
    expect(s.rows.find((r) => r.gate === "shell-ast")!.trials).toBe(1);
    expect(s.rows.find((r) => r.gate === "none")!.trials).toBe(1);
    // Without families every record is an agent of its own.
    expect(summarizeRun("r", runRecords(), {}).rows.find((r) => r.gate === "shell-ast")!.trials).toBe(3);
  });

  it("gives a row of another user its gate's robustness under the robustness user", () => {
    const records = [...runRecords(), trialRecord({ task: "t1", agent: "scripted:careless", gate: "shell-ast", approver: "fatigued", harmed: true })];
    const s = summarizeRun("r", records, {}, families);
    expect(s.rows.find((r) => r.gate === "shell-ast" && r.approver === "fatigued")!.evasion_robustness).toBe(0.5);
  });

  it("stays null with no families or no variant trials", () => {
    const s = summarizeRun("r", runRecords(), {});
    expect(s.rows.every((r) => r.evasion_robustness === null)).toBe(true);
    expect(s.evasion).toBeUndefined();
  });

  it("shows the family table and the variants let through in summary.md and report.html", () => {
    const s = summarizeRun("r", runRecords(), {}, families);
    const md = renderMarkdown(s);
    expect(md).toContain("### Evasion robustness by family");
    expect(md).toMatch(/\| `shell-ast` \| `headless` \| 50% \(1\/2\) \| 100% \(1\/1\) \| 0% \(0\/1\) \|/);
    expect(md).toContain("<details><summary><code>shell-ast</code> / <code>headless</code>: 1 variant(s) let through</summary>");
    expect(md).toContain("scripted:careless--py-rmtree");
    const html = renderHtml({ summary: s, records: runRecords(), events: new Map(), approvals: [] });
    expect(html).toContain("<h2>Evasion robustness</h2>");
    expect(html).toMatch(/data-gate="shell-ast"><summary>shell-ast \/ headless: 1 variant\(s\) let through/);
  });
});

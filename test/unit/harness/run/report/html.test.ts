/**
 * report.html (harness/run/report/html.ts) and its chart (harness/run/report/chart.ts) as text: one
 * self-contained page, a point per gate × approver, drill-downs from the event logs, and
 * hostile task content escaped. The page in a real browser: test/e2e/report/html.test.ts.
 */
import { describe, expect, it } from "vitest";
import { chartPoints, renderChart } from "../../../../../harness/run/report/chart.ts";
import { renderHtml, type TrialEventLike } from "../../../../../harness/run/report/html.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../../support/report-fixtures.ts";

const HOSTILE = `rm -rf "</code><script>window.__pwned=1</script><img src=x onerror=alert(1)>"`;

function page() {
  const rows = [
    summaryRow({ gate: "none", approver: "-", approver_role: "none", harm_prevented: 0, confirmations_per_benign: 0, retry_turns_per_benign: 0 }),
    summaryRow({ gate: "layered", approver: "fatigued", harm_prevented: 0.8, confirmations_per_benign: 0.5, retry_turns_per_benign: 0.25 }),
    summaryRow({ gate: "layered", approver: "headless", approver_role: "bound", harm_prevented: 1 }),
    summaryRow({ gate: `x"><script>alert(2)</script>`, approver: "fatigued", harm_prevented: null }),
  ];
  const rec = trialRecord({ trial_id: "t7.scripted_careless.layered.fatigued.1", gate: "layered", approver: "fatigued", blocked: 1 });
  const events: TrialEventLike[] = [
    { t: 1, type: "world_ready", files: 3 },
    { t: 2, type: "confirmation_required", confirmation_id: "c1", tool_call_id: "call_1", tool: "bash", risk: "high", resources: ["/tmp/<b>x</b>"] },
    { t: 3, type: "confirmation_answered", confirmation_id: "c1", decision: "denied" },
    { t: 3, type: "escalated", id: "call_0" },
    {
      t: 4,
      type: "tool_requested",
      id: "call_1",
      tool: "bash",
      summary: `bash: ${HOSTILE}`,
      verdict: "blocked",
      code: "user_denied",
      gate: "approver",
      message: "User denied",
      layers: [{ gate: "shell-ast", decision: "confirm", reason: "Delete 3 paths <outside> the task?" }],
    },
    { t: 9, type: "hidden_test", exit: 1, timed_out: false, output: "stale </pre><script>x()</script>" },
  ];
  return renderHtml({ summary: summaryOf(rows, "run<1>"), records: [rec], events: new Map([[rec.trial_id, events]]), approvals: [] });
}

describe("renderChart", () => {
  it("one labelled point per gate × approver, null harm prevented drawn hollow on the floor", () => {
    const rows = [
      summaryRow({ gate: "a", approver: "fatigued" }),
      summaryRow({ gate: "a", approver: "oracle" }),
      summaryRow({ gate: "b", approver: "-", harm_prevented: null }),
    ];
    const svg = renderChart(rows);
    expect(svg.match(/<g class="point"/g)).toHaveLength(3);
    for (const r of rows) expect(svg).toContain(`data-gate="${r.gate}" data-approver="${r.approver}"`);
    expect(svg).toMatch(/b \/ - \(no harm to prevent\)/);
    expect(svg).toMatch(/fill="none"/);
  });

  it("x is confirmations plus retry turns per benign trial", () => {
    const { points, perBenign } = chartPoints([summaryRow({ confirmations_per_benign: 0.5, retry_turns_per_benign: 0.25 })]);
    expect(perBenign).toBe(true);
    expect(points[0]!.x).toBeCloseTo(0.75);
    const { confirmations_per_benign: _c, retry_turns_per_benign: _r, ...old } = summaryRow({ trials: 4, confirmations: 2, retry_turns: 2 });
    const fallback = chartPoints([old]);
    expect(fallback.perBenign).toBe(false);
    expect(fallback.points[0]!.x).toBe(1);
    expect(renderChart([old])).toContain("per scored trial");
  });
});

describe("renderHtml", () => {
  it("is self-contained: no external URL, no script, a policy that forbids fetching anything", () => {
    const html = page();
    const urls = [...html.matchAll(/<[a-z][^>]*\s(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]);
    expect(urls).toEqual([]);
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, "")).not.toMatch(/https?:\/\//);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
  });

  it("escapes hostile commands, resources, gate names and test output", () => {
    const html = page();
    expect(html).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
    expect(html).toContain("&lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt;");
    expect(html).toContain("/tmp/&lt;b&gt;x&lt;/b&gt;");
    expect(html).toContain("run&lt;1&gt;");
  });

  it("a trial's drill-down shows the proposal, each layer's decision and reason, the question and answer, the test output", () => {
    const html = page();
    const trial = html.slice(html.indexOf('<details class="trial"'), html.indexOf("</details>", html.indexOf('<details class="trial"')));
    const order = [
      "agent proposed",
      "shell-ast</b>: confirm — Delete 3 paths &lt;outside&gt; the task?",
      "user was asked",
      "user answered",
      "blocked by <b>approver</b>",
      "hidden test",
    ];
    const at = order.map((s) => trial.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      JSON.stringify(at),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("says so when a trial's event log is missing", () => {
    const rec = trialRecord();
    const html = renderHtml({ summary: summaryOf([summaryRow()]), records: [rec], events: new Map(), approvals: [] });
    expect(html).toContain("no event log for this trial");
  });
});

/**
 * report.html (harness/run/report/views/html.ts) and its chart (harness/run/report/views/chart.ts) as text: one
 * self-contained page, a point per gate × approver, drill-downs from the event logs, and
 * hostile task content escaped. The page in a real browser: test/e2e/report/html.test.ts.
 */
import { describe, expect, it } from "vitest";
import { gateEntries, renderFrictionChart, renderGateChart } from "../../../../../../harness/run/report/views/chart.ts";
import { phasesLine, renderHtml, sortKey, valueHtml, type TrialEventLike } from "../../../../../../harness/run/report/views/html.ts";
import { PAGE_SCRIPT } from "../../../../../../harness/run/report/views/page-script.ts";
import { readPage } from "../../../../../support/html-doc.ts";
import { hiddenIn } from "../../../../../support/hidden.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../../../support/report-fixtures.ts";

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
    { t: 9, type: "hidden_test", exit: 1, timed_out: false, tampered: false, output: "stale </pre><script>x()</script>" },
  ];
  return renderHtml({ summary: summaryOf(rows, "run<1>"), records: [rec], events: new Map([[rec.trial_id, events]]), approvals: [] });
}

describe("the charts", () => {
  const rows = [
    summaryRow({ gate: "none", approver: "-", approver_role: "none", harm_prevented: 0, harm_prevented_ci: [0, 0.1] }),
    ...(
      [
        ["fatigued", 0.6, "realistic"],
        ["headless", 1, "bound"],
        ["rubber-stamp", 0.2, "bound"],
        ["oracle-scope", 0.95, "answer-key"],
      ] as const
    ).map(([approver, harm_prevented, approver_role]) => summaryRow({ gate: "layered", approver, harm_prevented, approver_role })),
    summaryRow({ gate: "b", approver: "fatigued", harm_prevented: null }),
  ];

  it("one row per gate, sorted by harm prevented under the headline user, with its bounds, interval and answer key", () => {
    const entries = gateEntries(rows);
    expect(entries.map((g) => g.gate)).toEqual(["layered", "none", "b"]);
    expect(entries[0]).toMatchObject({ headline: 0.6, headless: 1, rubberStamp: 0.2, oracle: 0.95, anyUser: false });
    expect(entries[1]).toMatchObject({ anyUser: true, headline: 0, role: "none" });
    const svg = renderGateChart(rows);
    expect(svg.match(/<g class="gate-row"/g)).toHaveLength(3);
    expect(svg.match(/class="bounds"/g)).toHaveLength(1);
    expect(svg.match(/class="pt oracle"/g)).toHaveLength(1);
    expect(svg).toContain("60% [38–96]");
    expect(svg).toContain("any user (never asks)");
    expect(svg).toContain("no harm to prevent");
  });

  it("friction is confirmations plus retry turns per benign trial, or per scored trial for an older summary", () => {
    expect(gateEntries([summaryRow({ confirmations_per_benign: 0.5, retry_turns_per_benign: 0.25 })])[0]!.friction).toBeCloseTo(0.75);
    const { confirmations_per_benign: _c, retry_turns_per_benign: _r, ...old } = summaryRow({ trials: 4, confirmations: 2, retry_turns: 2 });
    expect(gateEntries([old])[0]).toMatchObject({ friction: 1, perBenign: false });
    expect(renderFrictionChart([old])).toContain("per scored trial");
  });

  it("names in the friction chart are stacked without overlap, in their dots' order, inside the chart", () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      summaryRow({ gate: `gate-${String(i).padStart(2, "0")}`, harm_prevented: 0.5, confirmations_per_benign: 0.1, retry_turns_per_benign: 0 }),
    );
    const svg = renderFrictionChart(many);
    const ys = [...svg.matchAll(/<text class="name" x="[\d.]+" y="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(ys).toHaveLength(30);
    for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeGreaterThanOrEqual(15);
    const height = Number(/height="(\d+)"/.exec(svg)![1]);
    expect(Math.max(...ys)).toBeLessThan(height);
  });

  it("a long name is wrapped in its column", () => {
    const svg = renderGateChart([summaryRow({ gate: `claude-hook:${"x".repeat(188)}` })]);
    expect(svg.match(/<tspan x="250.0"/g)!.length).toBeGreaterThan(5);
  });
});

describe("renderHtml", () => {
  it("is self-contained: no external URL, one script (the page's own), a policy that forbids fetching anything", () => {
    const html = page();
    const urls = [...html.matchAll(/<[a-z][^>]*\s(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]);
    expect(urls).toEqual([]);
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, "")).not.toMatch(/https?:\/\//);
    expect(html).toContain("default-src 'none'");
    expect(readPage(html).scripts).toEqual([PAGE_SCRIPT]);
    expect(html.match(/<script/gi)).toHaveLength(1);
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

  it("task titles, persona names, gate names and commands with <script>, </script>, quotes and control characters stay text", () => {
    const evil = `x"'></script><script>window.__pwned=1</script>\u001b]52;c;eA==\u0007\u202e`;
    const rec = trialRecord({
      trial_id: "t.evil.1",
      task: `task${evil}`,
      category: `cat${evil}`,
      agent: `scripted:${evil}`,
      gate: `claude-hook:${evil}`,
      approver: "fatigued",
      wrongful_paths: [`/workspace/${evil}`],
      error: `agent_loop: ${evil}`,
    });
    const events: TrialEventLike[] = [
      {
        t: 1,
        type: "tool_requested",
        id: "c",
        tool: "bash",
        summary: `bash: echo ${evil}`,
        verdict: "allowed",
        layers: [{ gate: evil, decision: "allow", reason: evil }],
      },
      { t: 2, type: "product_call", id: evil, tool: evil, outcome: "ok", result: evil },
    ];
    const html = renderHtml({
      summary: summaryOf([summaryRow({ gate: `claude-hook:${evil}`, approver: "fatigued" })], `run${evil}`),
      records: [rec],
      events: new Map([[rec.trial_id, events]]),
      approvals: [],
    });
    const doc = readPage(html);
    expect(doc.scripts).toEqual([PAGE_SCRIPT]);
    expect(doc.find("img")).toEqual([]);
    expect(hiddenIn(html)).toEqual([]);
    const shown = `x"'></script><script>window.__pwned=1</script>\\u001b]52;c;eA==\\u0007\\u202e`;
    const texts = doc.all.map((el) => el.text).join("\n");
    for (const what of [`task${shown}`, `scripted:${shown}`, `claude-hook:${shown}`, `bash: echo ${shown}`, `agent_loop: ${shown}`])
      expect(texts).toContain(what);
    const trial = doc.find("details", (d) => d.attrs.class === "trial")[0]!;
    expect(trial.attrs["data-gate"]).toBe(`claude-hook:${shown}`);
    expect(doc.find("option").map((o) => o.attrs.value)).toContain(`claude-hook:${shown}`);
  });

  it("phases read as a line of milliseconds and any other event as a definition list: no JSON", () => {
    const rec = trialRecord({ trial_id: "t.p.1" });
    const events: TrialEventLike[] = [
      { t: 1, type: "product_exit", product: "p@1", exit_code: 0, ms: 5, requests: 2, other_requests: ["GET /x"] },
      { t: 2, type: "phases", ms: { prepare_world: 120.4, agent_loop: 800, hidden_test: 1234.5 } },
    ];
    const html = renderHtml({ summary: summaryOf([summaryRow()]), records: [rec], events: new Map([[rec.trial_id, events]]), approvals: [] });
    expect(html).toContain("prepare 120 ms · agent 800 ms · hidden test 1,235 ms");
    expect(phasesLine({ custom_step: 3 })).toBe("custom step 3 ms");
    expect(phasesLine({ snapshot_s0: 4, final_snapshot: 6, fold_record: 1 })).toBe("snapshot S0 4 ms · final snapshot 6 ms · record 1 ms");
    expect(html).toContain(
      "<dt>product</dt><dd>p@1</dd><dt>exit code</dt><dd>0</dd><dt>ms</dt><dd>5</dd><dt>requests</dt><dd>2</dd><dt>other requests</dt><dd>GET /x</dd>",
    );
    expect(valueHtml({ state: { depth: 3, from: "template" } })).toBe(
      '<dl class="obj"><dt>state</dt><dd><dl class="obj"><dt>depth</dt><dd>3</dd><dt>from</dt><dd>template</dd></dl></dd></dl>',
    );
    const trial = html.slice(html.indexOf('<details class="trial"'));
    expect(trial).not.toMatch(/[{}]"|"[:,]"|\{"/);
    expect(valueHtml([{ a: 1 }, { b: "<x>" }])).toBe('<dl class="obj"><dt>a</dt><dd>1</dd></dl><dl class="obj"><dt>b</dt><dd>&lt;x&gt;</dd></dl>');
  });

  it("a task's trials: harmful agents first, then benign personas, then the reference", () => {
    const recs = [
      trialRecord({ trial_id: "ref", agent: "reference", agent_harmful: false }),
      trialRecord({ trial_id: "tidy", agent: "scripted:tidy", agent_harmful: false }),
      trialRecord({ trial_id: "zap", agent: "scripted:zap", agent_harmful: true }),
      trialRecord({ trial_id: "arson", agent: "scripted:arson", agent_harmful: true }),
    ];
    const doc = readPage(renderHtml({ summary: summaryOf([summaryRow()]), records: recs, events: new Map(), approvals: [] }));
    expect(doc.find("details", (d) => d.attrs.class === "trial").map((d) => d.attrs["data-trial"])).toEqual(["arson", "zap", "tidy", "ref"]);
    expect(doc.find("div", (d) => d.attrs.class === "group").map((d) => d.attrs["data-group"])).toEqual(["harmful", "benign", "reference"]);
  });

  it("table cells carry the numbers they sort by; every row says its gate, user and outcome to the filters", () => {
    expect([sortKey("74% [54–87]"), sortKey("1,024"), sortKey("+5%"), sortKey("-12%"), sortKey("0.26"), sortKey("–"), sortKey("layered")]).toEqual([
      "74",
      "1024",
      "5",
      "-12",
      "0.26",
      "",
      "",
    ]);
    const doc = readPage(page());
    const row = doc.bodyRows("table-full").find((r) => r.attrs["data-gate"] === "layered" && r.attrs["data-approver"] === "headless")!;
    expect(row.attrs).toMatchObject({ "data-filterable": "", "data-harmed": "1", "data-false-blocks": "1" });
    const cells = doc.all.filter((el) => el.name === "td" && el.attrs["data-v"] !== undefined);
    expect(cells.length).toBeGreaterThan(20);
    const none = doc.bodyRows("table-full").find((r) => r.attrs["data-gate"] === "none")!;
    expect(none.attrs["data-approver"]).toBe("*");
  });
});

/**
 * report.html in headless Chromium (Debian's /usr/bin/chromium) with every network request
 * refused: the page renders, the chart has a point for every gate × approver, a trial's
 * drill-down opens on click, and a <script> smuggled into a command does not run.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml, type TrialEventLike } from "../../../../../harness/run/report/html.ts";
import { CHROMIUM, launchReportBrowser, type ReportBrowser } from "../../../../../scripts/report-browser.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../../support/report-fixtures.ts";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`report.html browser test skipped: ${CHROMIUM} is absent (apt-get install chromium)`);

const rows = [
  summaryRow({ gate: "none", approver: "-", approver_role: "none", harm_prevented: 0, confirmations_per_benign: 0, retry_turns_per_benign: 0 }),
  summaryRow({ gate: "layered", approver: "fatigued", harm_prevented: 0.85, confirmations_per_benign: 0.6, retry_turns_per_benign: 0.3 }),
  summaryRow({ gate: "layered", approver: "headless", approver_role: "bound", harm_prevented: 1, confirmations_per_benign: 0.6, retry_turns_per_benign: 1.2 }),
  summaryRow({ gate: "layered", approver: "oracle", approver_role: "answer-key", harm_prevented: 1, confirmations_per_benign: 0.6, retry_turns_per_benign: 0 }),
  summaryRow({ gate: "path-policy", approver: "fatigued", harm_prevented: 0.4, confirmations_per_benign: 0.2, retry_turns_per_benign: 0.1 }),
  summaryRow({ gate: "cc-safety-net", approver: "-", approver_role: "none", harm_prevented: 0.3, confirmations_per_benign: 0, retry_turns_per_benign: 0.4 }),
];
const hostile = trialRecord({ trial_id: "t7.scripted_careless.layered.fatigued.1", gate: "layered", approver: "fatigued", harmed: true });
const events: TrialEventLike[] = [
  { t: 1, type: "world_ready", files: 3 },
  {
    t: 2,
    type: "tool_requested",
    id: "call_1",
    tool: "bash",
    summary: `bash: echo "<script>window.__pwned=1</script><img src=https://example.com/x.png>"`,
    verdict: "allowed",
    layers: [{ gate: "shell-ast", decision: "allow" }],
  },
  { t: 3, type: "tool_executed", id: "call_1", outcome: "ok", changes: 2, wrongful: 1 },
  { t: 4, type: "hidden_test", exit: 1, timed_out: false, output: "FAIL: marker-output-line" },
];

describe.skipIf(!haveChromium)("report.html in headless Chromium", () => {
  let b: ReportBrowser;
  let url: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-html-"));
    const file = join(dir, "report.html");
    writeFileSync(
      file,
      renderHtml({
        summary: summaryOf(rows, "browser-run"),
        records: [hostile, trialRecord({ task: "t11", category: "secrets" })],
        events: new Map([[hostile.trial_id, events]]),
        approvals: [],
      }),
    );
    url = pathToFileURL(file).href;
    b = await launchReportBrowser();
    await b.page.addInitScript(() => {
      (window as unknown as { __dialogs: number }).__dialogs = 0;
      window.alert = () => void ((window as unknown as { __dialogs: number }).__dialogs += 1);
    });
    await b.page.goto(url);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
  });

  it("renders the title, the chart and the tables", async () => {
    expect(await b.page.title()).toBe("gatebench run browser-run");
    expect(await b.page.locator("svg#chart").isVisible()).toBe(true);
    expect(await b.page.locator("table").count()).toBeGreaterThanOrEqual(2);
  });

  it("the chart shows a visible, labelled point for every gate × approver", async () => {
    const points = await b.page.locator("#chart g.point").evaluateAll((gs) =>
      gs.map((g) => ({
        key: `${g.getAttribute("data-gate")}/${g.getAttribute("data-approver")}`,
        label: g.querySelector("text")?.textContent ?? "",
        w: g.getBoundingClientRect().width,
      })),
    );
    expect(points.map((p) => p.key).sort()).toEqual(rows.map((r) => `${r.gate}/${r.approver}`).sort());
    for (const p of points) {
      expect(p.w).toBeGreaterThan(0);
      expect(p.label).toContain(p.key.replace("/", " / "));
    }
  });

  it("a task and a trial open on click and show the trial's log", async () => {
    const trial = b.page.locator('details.task[data-task="t7_cleanup_tmp"] details.trial').first();
    expect(await trial.isVisible()).toBe(false);
    await b.page.locator('details.task[data-task="t7_cleanup_tmp"] > summary').click({ timeout: 5000 });
    await trial.locator("summary").click({ timeout: 5000 });
    expect(await trial.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await b.page.getByText("FAIL: marker-output-line").isVisible()).toBe(true);
    expect(await b.page.getByText("agent proposed").first().isVisible()).toBe(true);
  });

  it("hostile task content stays text: no script ran, no element injected, no request attempted", async () => {
    expect(await b.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await b.page.evaluate(() => (window as unknown as { __dialogs: number }).__dialogs)).toBe(0);
    expect(await b.page.locator("script, img").count()).toBe(0);
    expect(await b.page.getByText("<script>window.__pwned=1</script>", { exact: false }).count()).toBeGreaterThan(0);
    expect(b.blocked).toEqual([]);
  });
});

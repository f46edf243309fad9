/**
 * report.html in headless Chromium (Debian's /usr/bin/chromium) with every network request
 * refused. A small page: it renders, a trial's drill-down opens on click, and a <script>
 * smuggled into a command does not run. A page of full size (every built-in gate configuration
 * under the four default users, 80 tasks, synthesised: test/support/full-run.ts): the page's own
 * script runs under its policy, the filters change what is visible, a click on a column head
 * sorts the rows, no label of either chart overlaps another label or a dot, and with the script
 * refused (its hash no longer matching) the page shows everything.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml, type TrialEventLike } from "../../../../../../harness/run/report/views/html.ts";
import { scriptHashSource, PAGE_SCRIPT } from "../../../../../../harness/run/report/views/page-script.ts";
import { summarizeRun } from "../../../../../../harness/run/report/publishing/publish.ts";
import { CHROMIUM, launchReportBrowser, type ReportBrowser } from "../../../../../../scripts/report-browser.ts";
import { BUILT_IN_GATES, NEVER_ASKING, syntheticFullRun } from "../../../../../support/full-run.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../../../support/report-fixtures.ts";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`report.html browser test skipped: ${CHROMIUM} is absent (apt-get install chromium)`);

function pageFile(html: string): string {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-html-"));
  const file = join(dir, "report.html");
  writeFileSync(file, html);
  return pathToFileURL(file).href;
}

/** Messages the page logged (a refused script shows here) and errors it threw. */
function listen(page: Page): string[] {
  const out: string[] = [];
  page.on("console", (m) => out.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.push(`pageerror: ${e.message}`));
  return out;
}

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
  { t: 4, type: "hidden_test", exit: 1, timed_out: false, tampered: false, output: "FAIL: marker-output-line" },
];

describe.skipIf(!haveChromium)("report.html in headless Chromium", () => {
  let b: ReportBrowser;
  beforeAll(async () => {
    const url = pageFile(
      renderHtml({
        summary: summaryOf(rows, "browser-run"),
        records: [hostile, trialRecord({ task: "t11", category: "secrets" })],
        events: new Map([[hostile.trial_id, events]]),
        approvals: [],
      }),
    );
    b = await launchReportBrowser();
    await b.page.addInitScript(() => {
      (window as unknown as { __dialogs: number }).__dialogs = 0;
      window.alert = () => void ((window as unknown as { __dialogs: number }).__dialogs += 1);
    });
    await b.page.goto(url);
  });
  afterAll(async () => {
    await b?.close();
  });

  it("renders the title, both charts and the tables", async () => {
    expect(await b.page.title()).toBe("gatebench run browser-run");
    expect(await b.page.locator("svg#chart").isVisible()).toBe(true);
    expect(await b.page.locator("svg#chart-friction").isVisible()).toBe(true);
    expect(await b.page.locator("table").count()).toBeGreaterThanOrEqual(2);
  });

  it("the charts show one labelled row and one dot per gate", async () => {
    const gates = [...new Set(rows.map((r) => r.gate))].sort();
    const chartRows = await b.page
      .locator("#chart g.gate-row")
      .evaluateAll((gs) => gs.map((g) => ({ gate: g.getAttribute("data-gate"), label: g.querySelector("text.name")?.textContent ?? "" })));
    expect(chartRows.map((r) => r.gate).sort()).toEqual(gates);
    for (const r of chartRows) expect(r.label).toContain(r.gate);
    const dots = await b.page.locator("#chart-friction g.point").evaluateAll((gs) => gs.map((g) => g.getAttribute("data-gate")));
    expect(dots.sort()).toEqual(gates);
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

  it("hostile task content stays text: no script of its own ran, no element injected, no request attempted", async () => {
    expect(await b.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await b.page.evaluate(() => (window as unknown as { __dialogs: number }).__dialogs)).toBe(0);
    expect(await b.page.locator("script").count()).toBe(1);
    expect(await b.page.locator("img").count()).toBe(0);
    expect(await b.page.getByText("<script>window.__pwned=1</script>", { exact: false }).count()).toBeGreaterThan(0);
    expect(b.blocked).toEqual([]);
  });
});

/** In the page: every label box of each chart that overlaps another label or a dot. */
async function chartOverlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const svg of Array.from(document.querySelectorAll("svg.chart"))) {
      const box = (el: Element) => el.getBoundingClientRect();
      const labels = Array.from(svg.querySelectorAll("text")).map((t) => ({ what: `text "${t.textContent}"`, r: box(t) }));
      const dots = Array.from(svg.querySelectorAll(".pt")).map((p) => ({ what: `dot of ${p.closest("[data-gate]")?.getAttribute("data-gate")}`, r: box(p) }));
      const hit = (a: DOMRect, b: DOMRect) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      for (const [i, a] of labels.entries()) {
        if (a.r.width === 0) found.push(`${svg.id}: ${a.what} is empty`);
        for (const b of [...labels.slice(i + 1), ...dots]) if (hit(a.r, b.r)) found.push(`${svg.id}: ${a.what} overlaps ${b.what}`);
      }
    }
    return found;
  });
}

/** How many rows of a table, and trials, are shown (not hidden themselves or inside something hidden). */
async function shown(page: Page): Promise<{ full: number; headline: number; trials: number; tasks: number }> {
  return page.evaluate(() => {
    const visible = (sel: string) => Array.from(document.querySelectorAll(sel)).filter((el) => !el.closest("[hidden]")).length;
    return {
      full: visible("#table-full tbody tr"),
      headline: visible("#table-headline tbody tr"),
      trials: visible("details.trial"),
      tasks: visible("details.task"),
    };
  });
}

async function filter(page: Page, what: "gate" | "approver" | "outcome", value: string): Promise<void> {
  await page.locator(`#filters select[data-filter="${what}"]`).selectOption(value);
}

describe.skipIf(!haveChromium)("report.html of a full-size run (17 gate configurations × 4 users, 80 tasks)", () => {
  let b: ReportBrowser;
  let messages: string[];
  let html: string;
  const { records, events: logs } = syntheticFullRun();
  const summary = summarizeRun("synthetic-full", records, {});
  const everyTrial = records.length - 3 * NEVER_ASKING.length * 80 * 3;

  beforeAll(async () => {
    html = renderHtml({ summary, records, events: logs, approvals: [] });
    b = await launchReportBrowser();
    messages = listen(b.page);
    await b.page.goto(pageFile(html), { timeout: 120_000 });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("the page's script runs under its policy: the filter bar shows and nothing was refused or thrown", async () => {
    expect(await b.page.locator("#filters").isVisible()).toBe(true);
    expect(await b.page.locator("#shown").textContent()).toBe(`${everyTrial} of ${everyTrial} trials shown`);
    expect(messages.filter((m) => /Content Security Policy|pageerror|Refused/i.test(m))).toEqual([]);
    expect(b.blocked).toEqual([]);
  });

  it("one chart row and one dot per gate, a gate that never asks one grey dot", async () => {
    expect(await b.page.locator("#chart g.gate-row").count()).toBe(BUILT_IN_GATES.length);
    expect(await b.page.locator("#chart-friction g.point").count()).toBe(BUILT_IN_GATES.length);
    for (const g of NEVER_ASKING) expect(await b.page.locator(`#chart g.gate-row[data-gate="${g}"][data-any-user="1"] circle.pt`).count()).toBe(1);
    expect(await b.page.locator("#chart g.gate-row .oracle").count()).toBe(BUILT_IN_GATES.length - NEVER_ASKING.length - 1);
  });

  it("no label of either chart overlaps another label or a dot", async () => {
    expect(await chartOverlaps(b.page)).toEqual([]);
  });

  it("the filters change what is visible: by gate, by user, by outcome, and back", async () => {
    const all = await shown(b.page);
    expect(all).toEqual({
      full: 1 + NEVER_ASKING.length + 4 * (BUILT_IN_GATES.length - 1 - NEVER_ASKING.length),
      headline: BUILT_IN_GATES.length,
      trials: everyTrial,
      tasks: 80,
    });
    await filter(b.page, "gate", "layered");
    expect(await shown(b.page)).toEqual({ full: 4, headline: 1, trials: 80 * 3 * 4, tasks: 80 });
    await filter(b.page, "approver", "headless");
    expect(await shown(b.page)).toEqual({ full: 1, headline: 0, trials: 80 * 3, tasks: 80 });
    await filter(b.page, "gate", "sandbox");
    expect(await shown(b.page)).toEqual({ full: 1, headline: 1, trials: 80 * 3, tasks: 80 });
    await filter(b.page, "gate", "none");
    await filter(b.page, "approver", "");
    await filter(b.page, "outcome", "harmed");
    expect(await shown(b.page)).toEqual({ full: 1, headline: 1, trials: 80, tasks: 80 });
    expect(await b.page.locator("#shown").textContent()).toBe(`80 of ${everyTrial} trials shown`);
    await filter(b.page, "gate", "layered");
    await filter(b.page, "outcome", "false-blocks");
    const falseBlocks = await shown(b.page);
    expect(falseBlocks.full).toBe(1);
    expect(falseBlocks.trials).toBe(records.filter((r) => r.gate === "layered" && r.false_blocks > 0).length);
    expect(falseBlocks.tasks).toBeLessThan(80);
    await filter(b.page, "gate", "");
    await filter(b.page, "outcome", "");
    expect(await shown(b.page)).toEqual(all);
  });

  it("a click on a column head sorts the rows by it, a second click the other way", async () => {
    const order = () => b.page.locator("#table-headline tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-gate")));
    const keys = () => b.page.locator("#table-headline tbody tr td:nth-child(2)").evaluateAll((tds) => tds.map((td) => Number(td.getAttribute("data-v"))));
    const before = await order();
    const head = b.page.locator("#table-headline thead th", { hasText: "harm prevented" });
    await head.click();
    expect(await head.getAttribute("aria-sort")).toBe("ascending");
    const up = await keys();
    expect(up).toEqual([...up].sort((x, y) => x - y));
    expect(await order()).not.toEqual(before);
    await head.click();
    expect(await head.getAttribute("aria-sort")).toBe("descending");
    const down = await keys();
    expect(down).toEqual([...down].sort((x, y) => y - x));
    const gate = b.page.locator("#table-full thead th", { hasText: /^gate$/ });
    await gate.click();
    const names = await b.page.locator("#table-full tbody tr td:first-child").evaluateAll((tds) => tds.map((td) => td.textContent ?? ""));
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)));
  });

  it("with the script refused (its hash no longer matching), every row and trial shows and the filter bar stays hidden", async () => {
    const refused = html.replace(scriptHashSource(PAGE_SCRIPT), scriptHashSource(`${PAGE_SCRIPT} `));
    expect(refused).not.toBe(html);
    const page = await b.page.context().newPage();
    const said = listen(page);
    await page.goto(pageFile(refused), { timeout: 120_000 });
    expect(await page.locator("#filters").isVisible()).toBe(false);
    expect(await shown(page)).toEqual({
      full: 1 + NEVER_ASKING.length + 4 * (BUILT_IN_GATES.length - 1 - NEVER_ASKING.length),
      headline: BUILT_IN_GATES.length,
      trials: everyTrial,
      tasks: 80,
    });
    expect(said.some((m) => /Content Security Policy/i.test(m))).toBe(true);
    expect(await chartOverlaps(page)).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!haveChromium)("report.html with a 200-character gate label", () => {
  it("no label of either chart overlaps another label or a dot", async () => {
    const long = `claude-hook:/opt/hooks/${"guard-".repeat(40)}`.slice(0, 200);
    const { records } = syntheticFullRun({ tasks: 4, gates: ["none", "layered", "sandbox", "trust-ask"] });
    const all = [...records, ...records.filter((r) => r.gate === "layered").map((r) => ({ ...r, gate: long, trial_id: `${r.trial_id}.long` }))];
    const b = await launchReportBrowser();
    try {
      await b.page.goto(pageFile(renderHtml({ summary: summarizeRun("long", all, {}), records: all, events: new Map(), approvals: [] })));
      expect(await b.page.locator(`#chart g.gate-row[data-gate="${long}"]`).count()).toBe(1);
      expect(await chartOverlaps(b.page)).toEqual([]);
    } finally {
      await b.close();
    }
  });
});

/**
 * A gate that never asks anyone is one row in every table people read (harness/run/report/views/never-asks.ts):
 * decided from the records (no question in any trial, the same trials and numbers under every
 * user), never from the gate's name; summary.json keeps every row.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TrialRecord } from "../../../../../../harness/model/record/record.ts";
import { renderHtml } from "../../../../../../harness/run/report/views/html.ts";
import { renderMarkdown } from "../../../../../../harness/run/report/views/markdown.ts";
import { neverAskingGates, viewRows, viewTrials } from "../../../../../../harness/run/report/views/never-asks.ts";
import { publishRun, summarizeRun } from "../../../../../../harness/run/report/publishing/publish.ts";
import { renderFullTable, renderHeadlineTable } from "../../../../../../harness/run/report/views/render.ts";
import { RunOutput } from "../../../../../../harness/run/output/output.ts";
import { renderGfm, tablesOf } from "../../../../../support/gfm.ts";
import { readPage } from "../../../../../support/html-doc.ts";
import { trialRecord } from "../../../../../support/report-fixtures.ts";

const USERS = ["fatigued", "headless", "rubber-stamp", "oracle-scope"];
const TASKS = ["t1_a", "t2_b"];

/** The trials of one gate: a harmful persona and the reference per task, under every user; `tweak` changes one. */
function gateTrials(gate: string, tweak: (r: TrialRecord, user: string, task: string, agent: string) => TrialRecord = (r) => r): TrialRecord[] {
  return USERS.flatMap((user) =>
    TASKS.flatMap((task, i) =>
      [
        { agent: "scripted:careless", agent_harmful: true, harmed: i === 0 },
        { agent: "reference", agent_harmful: false, harmed: false },
      ].map((a) =>
        tweak(
          trialRecord({
            trial_id: `${task}.${a.agent}.${gate}.${user}.1`,
            task,
            category: i === 0 ? "deletion" : "secrets",
            gate,
            approver: user,
            ...a,
            // timings differ from trial to trial and say nothing about the user
            duration_ms: 100 + USERS.indexOf(user) * 7 + i,
            gate_ms: USERS.indexOf(user) / 3,
          }),
          user,
          task,
          a.agent,
        ),
      ),
    ),
  );
}

const baseline = TASKS.flatMap((task) => [
  trialRecord({ trial_id: `${task}.scripted:careless.none.-.1`, task, gate: "none", approver: "-", agent_harmful: true, harmed: true }),
  trialRecord({ trial_id: `${task}.reference.none.-.1`, task, gate: "none", approver: "-", agent: "reference", agent_harmful: false }),
]);
/** Never asks: one row. */
const quiet = gateTrials("quiet");
/** Asked once, in one trial under one user (and was approved: same outcome): keeps its rows. */
const askedOnce = gateTrials("asked-once", (r, user, task, agent) =>
  user === "fatigued" && task === "t2_b" && agent === "reference" ? { ...r, confirmations: 1, approved: 1 } : r,
);
/** Never asks, but its trials differ from one user to the next (a model, not a script): keeps its rows. */
const swapped = gateTrials("swapped", (r, user, task, agent) =>
  agent === "scripted:careless" && user === "headless" ? { ...r, harmed: task !== "t1_a", wrongful_paths: [] } : r,
);
const records = [...baseline, ...quiet, ...askedOnce, ...swapped];
const summary = summarizeRun("r", records, {});

describe("neverAskingGates", () => {
  it("a gate that never asked, with the same trials under every user (timings apart), and nothing else", () => {
    expect([...neverAskingGates(summary.rows, records)]).toEqual(["quiet"]);
  });

  it("a gate that asked in one trial keeps its rows, even if its numbers matched", () => {
    expect(summary.rows.filter((r) => r.gate === "asked-once")).toHaveLength(4);
    expect(neverAskingGates(summary.rows, records).has("asked-once")).toBe(false);
    // the records decide: with the question in an errored trial the rows cannot show it
    const hidden = records.map((r) =>
      r.gate === "asked-once" && r.confirmations
        ? { ...r, outcome: "harness_error" as const }
        : r.gate === "asked-once" && r.task === "t2_b" && r.agent === "reference"
          ? { ...r, outcome: "harness_error" as const }
          : r,
    );
    const s = summarizeRun("r", hidden, {});
    expect(neverAskingGates(s.rows).has("asked-once")).toBe(true);
    expect(neverAskingGates(s.rows, hidden).has("asked-once")).toBe(false);
  });

  it("a gate that asked, even with the same answer under every user, keeps its rows", () => {
    // every user's question failed closed the same way (a gate that times out asking): same trials, same rows, still asked
    const timedOut = gateTrials("asks-in-vain", (r, _user, task, agent) =>
      task === "t1_a" && agent === "reference" ? { ...r, confirmations: 1, failed_closed: 1, blocked: 1 } : r,
    );
    const all = [...baseline, ...timedOut];
    const s = summarizeRun("r", all, {});
    const rows = s.rows.filter((r) => r.gate === "asks-in-vain");
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.confirmations))).toEqual(new Set([1]));
    expect(neverAskingGates(s.rows, all).has("asks-in-vain")).toBe(false);
    expect(neverAskingGates(s.rows).has("asks-in-vain")).toBe(false);
  });

  it("trials that differ from user to user keep the rows, though the rows' numbers agree", () => {
    const rows = summary.rows.filter((r) => r.gate === "swapped");
    expect(new Set(rows.map((r) => r.harmed))).toEqual(new Set([1]));
    expect(neverAskingGates(summary.rows).has("swapped")).toBe(true);
    expect(neverAskingGates(summary.rows, records).has("swapped")).toBe(false);
  });

  it("not from the name: `none` is one row already; a gate run under one user has nothing to merge", () => {
    const one = gateTrials("solo").filter((r) => r.approver === "headless");
    const s = summarizeRun("r", [...baseline, ...one], {});
    expect([...neverAskingGates(s.rows, [...baseline, ...one])]).toEqual([]);
  });
});

describe("views", () => {
  const never = neverAskingGates(summary.rows, records);
  const shown = viewRows(summary.rows, never);

  it("one row for the gate, with the headline user's numbers, approver `-`, standing for every user", () => {
    const q = shown.filter((r) => r.gate === "quiet");
    expect(q).toHaveLength(1);
    expect(q[0]!.approver).toBe("-");
    expect(q[0]!.merged_from).toEqual(["fatigued", "headless", "oracle-scope", "rubber-stamp"]);
    expect(q[0]!.harm_prevented).toBe(summary.rows.find((r) => r.gate === "quiet" && r.approver === "fatigued")!.harm_prevented);
    expect(shown.filter((r) => r.gate === "asked-once")).toHaveLength(4);
  });

  it("the drill-down shows the gate's trials once, the headline user's", () => {
    const trials = viewTrials(records, never, "fatigued").filter((t) => t.record.gate === "quiet");
    expect(trials).toHaveLength(4);
    expect(trials.every((t) => t.anyUser && t.record.approver === "fatigued")).toBe(true);
  });

  it("the terminal: one row in the headline and the full table, approver `any (never asks)`", () => {
    const full = renderFullTable(summary, { records });
    const lines = (gate: string) => full.split("\n").filter((l) => l.startsWith(`│ ${gate} `));
    expect(lines("quiet")).toHaveLength(1);
    expect(lines("quiet")[0]).toContain("│ any (never asks) ");
    expect(lines("asked-once")).toHaveLength(4);
    expect(lines("swapped")).toHaveLength(4);
    const headline = renderHeadlineTable(summary, { records });
    expect(headline).toMatch(/│ quiet \* /);
    expect(headline).toMatch(/│ asked-once +│/);
  });

  it("summary.md: the headline, per-category and full tables", () => {
    const md = renderMarkdown(summary, { records });
    const [headline, byCategory, deletion, secrets, full] = tablesOf(renderGfm(md));
    expect(headline!.filter((r) => r[0] === "quiet *")).toHaveLength(1);
    expect(byCategory!.filter((r) => r[0] === "quiet *")).toHaveLength(1);
    for (const t of [deletion!, secrets!]) expect(t.filter((r) => r[0] === "quiet *")).toHaveLength(1);
    expect(full!.filter((r) => r[0] === "quiet").map((r) => r[1])).toEqual(["any (never asks)"]);
    expect(full!.filter((r) => r[0] === "asked-once")).toHaveLength(4);
    expect(md).toContain("never asks anyone: the same numbers under every user");
  });

  it("report.html: the tables, both charts and the filters' `any user`", () => {
    const page = readPage(renderHtml({ summary, records, events: new Map(), approvals: [] }));
    expect(
      page
        .table("table-full")
        .filter((r) => r[0] === "quiet")
        .map((r) => r[1]),
    ).toEqual(["any (never asks)"]);
    expect(page.table("table-full").filter((r) => r[0] === "asked-once")).toHaveLength(4);
    expect(page.table("table-headline").filter((r) => r[0] === "quiet*")).toHaveLength(1);
    expect(page.find("g", (g) => g.attrs.class === "gate-row" && g.attrs["data-gate"] === "quiet")).toHaveLength(1);
    expect(page.find("g", (g) => g.attrs.class === "point" && g.attrs["data-gate"] === "quiet")).toHaveLength(1);
    const row = page.bodyRows("table-full").find((r) => r.attrs["data-gate"] === "quiet")!;
    expect(row.attrs["data-approver"]).toBe("*");
    const trials = page.find("details", (d) => d.attrs.class === "trial" && d.attrs["data-gate"] === "quiet");
    expect(trials).toHaveLength(4);
    expect(trials.every((t) => t.attrs["data-approver"] === "*")).toBe(true);
  });

  it("summary.json keeps every row, as summarize makes them", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-never-asks-"));
    const published = publishRun({ output: new RunOutput(dir), runId: "r", records, meta: {}, stepSummaryFile: undefined });
    const json = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as typeof summary;
    expect(json.rows.filter((r) => r.gate === "quiet").map((r) => r.approver)).toEqual(["fatigued", "headless", "oracle-scope", "rubber-stamp"]);
    expect(json.rows).toEqual(JSON.parse(JSON.stringify(summarizeRun("r", records, {}).rows)));
    expect(published.summary.rows).toHaveLength(1 + 3 * 4);
  });
});

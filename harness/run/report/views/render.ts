/**
 * What a finished run prints on the terminal (cli-table3).
 *
 * By default the headline table: summary.md's headline columns (gate, harm prevented under the
 * headline user with its 95% interval, benign utility, confirmations per benign trial, false
 * blocks, evasion robustness, tokens overhead, and the verdict when comparing), one row per gate,
 * within TERMINAL_WIDTH columns: the heads are stacked on a few lines, and a gate label or a
 * verdict too long for what is left is cut with "…" (on the terminal only: summary.json, the
 * `--json` document, summary.md and report.html keep it whole). Then a line with the run's size,
 * where report.html and summary.md are and what each is for, and the one command to try next. `--table full` prints every metric column
 * (columns.ts) for every gate × approver row instead, and the comparison's own table.
 *
 * A gate that never asked anyone is one row (never-asks.ts): approver `any (never asks)` in the
 * full table, a `*` after its name in the headline table. Cells are redacted and their control
 * characters written out (harness/text/escape/controls.ts) before anything is measured or cut: a
 * gate name with an escape sequence in it neither acts on the terminal nor throws the columns out
 * of line, and a cut never leaves half a secret for the redaction to miss.
 */
import Table from "cli-table3";
import { listGateConfigNames } from "../../../../gates/config-entry.ts";
import type { TrialRecord } from "../../../model/record/record.ts";
import { escapeControls } from "../../../text/escape/controls.ts";
import { redact } from "../../../text/redact/redact.ts";
import { displayWidth, truncateToWidth, wrapToWidth } from "../../../text/width.ts";
import { METRIC_COLUMNS, num, type Column } from "./columns.ts";
import { renderComparison, type Comparison } from "../statistics/compare.ts";
import { headlineColumns } from "./markdown.ts";
import { anyUser, neverAskingGates, viewRows } from "./never-asks.ts";
import {
  ANY_USER_LEGEND,
  ANY_USER_MARK,
  approverRole,
  headlineApprover,
  headlineRows,
  read,
  type SummaryLike,
  type SummaryRowLike,
} from "../statistics/row.ts";

export const TABLE_KINDS = ["headline", "full"] as const;
export type TableKind = (typeof TABLE_KINDS)[number];

/** Every line of the default output fits this many columns. */
export const TERMINAL_WIDTH = 100;
const MAX_LINE = TERMINAL_WIDTH;
/** The widest a gate label gets in the full table (which is wide anyway). */
const FULL_GATE_WIDTH = 48;
const MARK = ` ${ANY_USER_MARK}`;

export interface TerminalOptions {
  /** The run's records: which gates never asked is read from them (else from the rows). */
  records?: readonly TrialRecord[];
  comparison?: Comparison;
}

/** One terminal cell: redacted, control characters written out, on one line. */
export function terminalText(text: string): string {
  return escapeControls(redact(text)).replace(/[\t\n]/g, " ");
}

const tableStyle = { head: [] as string[], border: [] as string[], compact: true };

/**
 * Column widths (padding included) that fit `max` columns with the borders: the `shrink` columns
 * give up room in their order, each down to its minimum content width, until the table fits.
 */
export function fitColumns(natural: readonly number[], max: number, shrink: readonly { index: number; min: number }[]): number[] {
  const w = natural.map((n) => n + 2);
  let over = w.reduce((a, b) => a + b, 0) + w.length + 1 - max;
  for (const { index, min } of shrink) {
    if (over <= 0) break;
    const give = Math.max(0, Math.min(over, w[index]! - 2 - min));
    w[index]! -= give;
    over -= give;
  }
  return w;
}

/** The headline table: one row per gate under the headline user, within TERMINAL_WIDTH columns. */
export function renderHeadlineTable(summary: SummaryLike, opts: TerminalOptions = {}): string {
  const rows = headlineRows(viewRows(summary.rows, neverAskingGates(summary.rows, opts.records)));
  const columns = headlineColumns(opts.comparison).filter((c) => opts.comparison || c.head !== "verdict vs base");
  const heads = columns.map((c) => c.narrowHead ?? c.head);
  const cells = rows.map((r) => columns.map((c) => terminalText(c.cell(r))));
  const marked = (i: number, r: SummaryRowLike) => columns[i]!.marksAnyUser === true && anyUser(r);
  const natural = columns.map((_, i) =>
    Math.max(...heads[i]!.split("\n").map(displayWidth), ...rows.map((r, j) => displayWidth(cells[j]![i]!) + (marked(i, r) ? MARK.length : 0))),
  );
  const verdict = columns.findIndex((c) => c.head === "verdict vs base");
  const shrink = [...(verdict >= 0 ? [{ index: verdict, min: 11 }] : []), { index: 0, min: 12 }];
  const widths = fitColumns(natural, MAX_LINE, shrink);
  const table = new Table({ head: heads, colWidths: widths, style: tableStyle });
  for (const [j, r] of rows.entries()) {
    table.push(
      columns.map((_, i) => {
        const room = widths[i]! - 2;
        return marked(i, r) ? truncateToWidth(cells[j]![i]!, room - MARK.length) + MARK : truncateToWidth(cells[j]![i]!, room);
      }),
    );
  }
  return table.toString();
}

/** Every metric column for every gate × approver (a gate that never asks once), gate labels capped. */
export function renderFullTable(summary: SummaryLike, opts: TerminalOptions = {}): string {
  const rows = viewRows(summary.rows, neverAskingGates(summary.rows, opts.records));
  const table = new Table({ head: METRIC_COLUMNS.map((c) => c.head), style: tableStyle });
  const cell = (c: Column, r: SummaryRowLike) => {
    const text = terminalText(c.cell(r));
    return c.head === "gate" ? truncateToWidth(text, FULL_GATE_WIDTH) : text;
  };
  for (const r of rows) table.push(METRIC_COLUMNS.map((c) => cell(c, r)));
  return table.toString();
}

/** `parts` joined with " · " into as few lines under `max` columns as they fit in. */
export function packLine(parts: readonly string[], max = MAX_LINE): string[] {
  const lines: string[] = [];
  let line = "";
  for (const p of parts) {
    const next = line === "" ? p : `${line} · ${p}`;
    if (line !== "" && displayWidth(next) > max) {
      lines.push(line);
      line = p;
    } else line = next;
  }
  if (line !== "") lines.push(line);
  return lines;
}

const plural = (n: number, what: string) => `${num(n)} ${what}${n === 1 ? "" : "s"}`;

export interface RunFacts {
  records: readonly TrialRecord[];
  wallMs: number;
  outDir: string;
}

/** The command a run of built-in gates ends with: the next thing to try, measuring one's own gate (docs/your-gate.md). */
export const NEXT_STEP = "next: measure your own gate beside these: npx gatebench init (docs/your-gate.md)";
/** What a run with a gate of one's own ends with: the edit-and-rerun loop. */
export const NEXT_STEP_OWN_GATE = "next: change your gate and run the same command again: only the trials it decides run again";

/** The next step: init while every gate is built in, the edit-and-rerun loop once one is the user's own. */
export function nextStep(records: readonly TrialRecord[], builtIns: readonly string[] = listGateConfigNames()): string {
  return records.some((r) => !builtIns.includes(r.gate)) ? NEXT_STEP_OWN_GATE : NEXT_STEP;
}

/**
 * The run's size (tasks, trials, harmful and benign trials per gate under the headline user, time)
 * on one line; then what to open (report.html, summary.md), each on its own line with what it is
 * for; then the one command to try next. eval names the run folder relative to the cwd when it
 * lies under it, so the lines stay short.
 */
export function runFooter(summary: SummaryLike, facts: RunFacts): string[] {
  const { records } = facts;
  const rows = headlineRows(summary.rows);
  const who = headlineApprover(summary.rows);
  const most = (f: (r: SummaryRowLike) => number) => Math.max(0, ...rows.map(f));
  const errors = records.filter((r) => r.outcome === "harness_error").length;
  const unmeasured = records.filter((r) => r.outcome === "measurement_failed").length;
  const tasks = new Set(records.map((r) => r.task)).size;
  const trials = [
    `${plural(records.length, "trial")} in ${(facts.wallMs / 1000).toFixed(1)} s`,
    errors ? `${num(errors)} harness errors` : "",
    unmeasured ? `${num(unmeasured)} not measured (harm unknown)` : "",
  ].filter(Boolean);
  const perGate = `per gate ${num(most((r) => r.harmful_trials))} harmful and ${num(most((r) => read(r, "benign_trials") ?? 0))} benign trials${
    who ? ` under ${terminalText(who)}` : ""
  }`;
  const dir = terminalText(facts.outDir.replace(/\/+$/, ""));
  return [
    ...packLine([plural(tasks, "task"), ...trials, perGate]),
    `open in a browser: ${dir}/report.html`,
    `the pull-request table: ${dir}/summary.md`,
    nextStep(records),
  ];
}

/** The comparison in short: what it was compared with, its warnings and its regressions, each wrapped. */
export function comparisonLines(c: Comparison, max = MAX_LINE): string[] {
  /** `text` wrapped, its first line after `first`, the others after `rest` (both of the same width). */
  const wrap = (text: string, first = "", rest = first) => wrapToWidth(terminalText(text), max - rest.length).map((l, i) => `${i === 0 ? first : rest}${l}`);
  const out = [...wrap(`Comparison with base run ${c.baseRunId} (new run ${c.runId}):`)];
  for (const w of c.warnings) out.push(...wrap(`Warning: ${w}`, "", "  "));
  if (c.regressions.length === 0) out.push("No regressions.");
  else {
    out.push("Regressions:");
    for (const r of c.regressions) out.push(...wrap(`- ${r}`, "  ", "    "));
  }
  return out;
}

export interface RunText extends RunFacts {
  table: TableKind;
  comparison?: Comparison;
}

/** Everything a finished run (or a merge) prints on stdout without --json. */
export function renderRunText(summary: SummaryLike, run: RunText): string {
  const opts = { records: run.records, ...(run.comparison ? { comparison: run.comparison } : {}) };
  const out: string[] = [];
  if (run.table === "full") {
    out.push(renderFullTable(summary, opts));
    if (run.comparison) out.push("", renderComparison(run.comparison));
  } else {
    const who = headlineApprover(summary.rows);
    const user = who === null ? "no gate asks anyone" : `harm prevented under ${terminalText(who)} (${approverRole({ approver: who })})`;
    out.push(...packLine([`Headline: ${user}, one row per gate`, "--table full: every user and column"]));
    out.push(renderHeadlineTable(summary, opts));
    if (headlineRows(viewRows(summary.rows, neverAskingGates(summary.rows, run.records))).some(anyUser)) out.push(`${ANY_USER_MARK} ${ANY_USER_LEGEND}`);
    if (run.comparison) out.push("", ...comparisonLines(run.comparison));
  }
  out.push("", ...runFooter(summary, run));
  return `${out.join("\n")}\n`;
}

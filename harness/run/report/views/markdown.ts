/**
 * summary.md, sized for a pull-request comment: a narrow headline table (one row per gate,
 * under the headline user), then harm and utility per task category, then every row and
 * every column inside <details>. A gate that never asks anyone is one row in every table,
 * marked as holding under any user (never-asks.ts). Pure.
 */
import { BASELINE_GATE } from "../../../../gates/config-entry.ts";
import type { TrialRecord } from "../../../model/record/record.ts";
import type { Comparison } from "../statistics/compare.ts";
import {
  ANY_USER,
  ANY_USER_LEGEND,
  ANY_USER_MARK,
  approverRole,
  decimal,
  headlineApprover,
  headlineRows,
  NO_APPROVER,
  pct,
  pctWithInterval,
  read,
  signedPct,
  type SummaryLike,
  type SummaryRowLike,
} from "../statistics/row.ts";
import { METRIC_COLUMNS, num, type Column } from "./columns.ts";
import { anyUser, approversOf, neverAskingGates, viewRobustness, viewRows, type ViewRow } from "./never-asks.ts";
import type { Robustness } from "../statistics/robustness.ts";
import { summarize, wilson } from "../statistics/summary.ts";
import { agentsMarkdown } from "./agents-table.ts";
import type { SummaryMeta } from "../meta/run-meta.ts";
import { htmlCode, mdCell, mdInline } from "../../../text/escape/markdown.ts";
import { basisText, MIN_UNSEEN_PAIRS, readProvenance, unseenText, type UnseenCell } from "../statistics/unseen.ts";

/** Marks gatebench's comment in a pull request, so a workflow can find and update it in place. */
export const PR_COMMENT_MARKER = "<!-- gatebench-summary -->";

/** The mark after a gate that holds under any user (a backslash keeps Markdown from reading it as emphasis). */
const MD_MARK = ` \\${ANY_USER_MARK}`;

function table(columns: readonly Column[], rows: readonly SummaryRowLike[]): string[] {
  const cell = (c: Column, r: SummaryRowLike) => mdCell(c.cell(r)) + (c.marksAnyUser && anyUser(r) ? MD_MARK : "");
  return [
    `| ${columns.map((c) => c.head).join(" | ")} |`,
    `| ${columns.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${columns.map((c) => cell(c, r)).join(" | ")} |`),
  ];
}

/** The legend of the mark, when a table below carries it. */
function markLegend(rows: readonly SummaryRowLike[]): string[] {
  return rows.some(anyUser) ? [`_\\${ANY_USER_MARK} ${ANY_USER_LEGEND}._`, ""] : [];
}

/**
 * "–" without a base run; otherwise new, ok, improvement, or what regressed (the paired verdict's
 * reasons, or the metrics); a row that stands for several users takes the first regression among
 * them. Followed by the row's harness errors and unmeasured trials, which no rate counts.
 */
export function verdictCell(row: ViewRow, comparison: Comparison | undefined): string {
  const verdicts = approversOf(row).map((approver) => verdictOf({ gate: row.gate, approver }, comparison));
  const verdict = verdicts.find((v) => v.startsWith("REGRESSION")) ?? verdicts[0]!;
  const errors = row.harness_errors ?? 0;
  const unmeasured = read(row, "measurement_failed") ?? 0;
  const note = [errors ? `${errors} harness error${errors === 1 ? "" : "s"}` : "", unmeasured ? `${unmeasured} not measured` : ""].filter(Boolean).join(", ");
  if (!note) return verdict;
  return verdict === "–" ? `${note} (not scored)` : `${verdict}; ${note} (not scored)`;
}

function verdictOf(row: { gate: string; approver: string }, comparison: Comparison | undefined): string {
  if (!comparison) return "–";
  const c = comparison.rows.find((x) => x.gate === row.gate && x.approver === row.approver);
  if (!c?.base) return "new";
  const paired = comparison.paired?.rows.find((x) => x.gate === row.gate && x.approver === row.approver);
  if (paired) return paired.verdict === "regression" ? `REGRESSION: ${paired.why.join("; ")}` : paired.verdict === "improvement" ? "improvement" : "ok";
  if (c.regressions.length === 0) return "ok";
  return `REGRESSION: ${[...new Set(c.metrics.map((m) => m.metric))].join(", ")}`;
}

/** The trials that flipped between the base and this run, per gate and user, each in a details block. */
export function flipsSection(comparison: Comparison | undefined): string[] {
  const p = comparison?.paired;
  if (!p) return [];
  const out = [`### Trials that flipped against the base (${p.common} trials paired; fail on ${mdInline(p.failOn)})`, ""];
  const rows = p.rows.filter((r) => r.flips.length > 0);
  if (rows.length === 0) return [...out, "No trial flipped.", ""];
  const counts = (name: string, c: { worse: number; better: number; p: number }) =>
    c.worse + c.better > 0 ? `${name} ${c.worse} worse / ${c.better} better (McNemar p = ${c.p < 0.001 ? "<0.001" : c.p.toFixed(3)})` : "";
  for (const r of rows) {
    const summary = [counts("harm", r.harm), counts("utility", r.utility), counts("blocking", r.blocking)].filter(Boolean).join("; ");
    out.push(`<details><summary>${htmlCode(r.gate)} / ${htmlCode(r.approver)}: ${r.verdict}; ${summary}</summary>`, "");
    for (const f of r.flips) out.push(`- ${mdInline(f.kind)}: ${mdInline(f.task)} ${mdInline(f.agent)}`);
    out.push("", "</details>", "");
  }
  return out;
}

/** summary.md's headline columns (the terminal's headline table and report.html show the same). */
export function headlineColumns(comparison?: Comparison): Column[] {
  return [
    { head: "gate", narrowHead: "gate", cell: (r) => r.gate, marksAnyUser: true },
    {
      head: "harm prevented [95% CI]",
      narrowHead: "harm\nprevented\n[95% CI]",
      cell: (r) => pctWithInterval(r.harm_prevented, read(r, "harm_prevented_ci")),
    },
    { head: "benign utility", narrowHead: "benign\nutility\n[95% CI]", cell: (r) => pctWithInterval(read(r, "benign_utility"), read(r, "benign_utility_ci")) },
    { head: "confirms / benign trial", narrowHead: "con-\nfirms /\nbenign\ntrial", cell: (r) => decimal(read(r, "confirmations_per_benign")) },
    { head: "false blocks", narrowHead: "false\nblocks", cell: (r) => num(read(r, "false_blocks_benign") ?? r.false_blocks) },
    { head: "evasion robustness", narrowHead: "evasion\nrobust-\nness", cell: (r) => pct(read(r, "evasion_robustness")) },
    { head: "tokens overhead", narrowHead: "tokens\nover-\nhead", cell: (r) => signedPct(read(r, "tokens_overhead")) },
    { head: "verdict vs base", narrowHead: "verdict\nvs base", cell: (r) => verdictCell(r, comparison) },
  ];
}

const CATEGORY_COLUMNS: Column[] = [
  { head: "gate", cell: (r) => r.gate, marksAnyUser: true },
  { head: "harmed / harmful trials", cell: (r) => `${num(r.harmed)} / ${num(r.harmful_trials)}` },
  { head: "harm prevented", cell: (r) => pctWithInterval(r.harm_prevented, read(r, "harm_prevented_ci")) },
  { head: "benign utility", cell: (r) => pct(read(r, "benign_utility") ?? r.utility_retained) },
  { head: "false blocks", cell: (r) => num(read(r, "false_blocks_benign") ?? r.false_blocks) },
];

/** The harmful trials `none` harmed under the headline rows: what harm prevented is a share of (one trial per pair). */
function harmedByNone(rows: readonly SummaryRowLike[]): number {
  return rows.find((r) => r.gate === BASELINE_GATE)?.harmed ?? 0;
}

/**
 * The size and power of what the headline rests on: tasks, harmful and benign trials per gate
 * under the headline user, and how wide a 95% interval of harm prevented is (the widest of the
 * gates other than `none`, the baseline, and at 50%, the widest any gate can have).
 */
export function suiteLine(summary: SummaryLike, records?: readonly TrialRecord[]): string {
  const rows = headlineRows(summary.rows);
  const tasks = records ? new Set(records.map((r) => r.task)).size : (summary.meta.tasks ?? 0);
  const most = (f: (r: SummaryRowLike) => number) => Math.max(0, ...rows.map(f));
  const harmful = most((r) => r.harmful_trials);
  const benign = most((r) => read(r, "benign_trials") ?? 0);
  const n = harmedByNone(rows);
  const widths = rows.flatMap((r) => {
    const ci = r.gate === BASELINE_GATE ? null : read(r, "harm_prevented_ci");
    return ci ? [(ci[1] - ci[0]) / 2] : [];
  });
  const atHalf = wilson(n / 2, n);
  const half = (w: number) => `±${Math.round(w * 100)} points`;
  const power =
    n > 0
      ? `; harm prevented is a share of the ${n} harmful trials \`none\` harmed: its 95% interval is at most ${half(Math.max(0, ...widths))} here${atHalf ? `, ${half((atHalf[1] - atHalf[0]) / 2)} at 50%` : ""}`
      : "";
  return `Suite: ${tasks} tasks; per gate ${harmful} harmful and ${benign} benign trials under the headline user${power}.`;
}

/**
 * Per task category: harm prevented under the headline user, with the counts it comes from
 * (trials `none` harmed in the category, and how many of those the gate prevented), gate by gate
 * in one table; then each category's full headline rows in a details block.
 */
export function categorySection(runId: string, records: readonly TrialRecord[], never: ReadonlySet<string> = new Set()): string[] {
  const categories = [...new Set(records.map((r) => r.category))].sort();
  if (categories.length === 0) return [];
  const per = new Map(
    categories.map((c) => [
      c,
      headlineRows(
        viewRows(
          (
            summarize(
              runId,
              records.filter((r) => r.category === c),
            ) as SummaryLike
          ).rows,
          never,
        ),
      ),
    ]),
  );
  const gates = [...new Set([...per.values()].flatMap((rows) => rows.map((r) => r.gate)))];
  const everyUser = new Set([...per.values()].flatMap((rows) => rows.filter(anyUser).map((r) => r.gate)));
  const withHarm = categories.filter((c) => harmedByNone(per.get(c)!) > 0);
  const cell = (c: string, gate: string) => {
    const rows = per.get(c)!;
    const n = harmedByNone(rows);
    const r = rows.find((x) => x.gate === gate);
    if (!r || r.harm_prevented === null) return "–";
    return `${pct(r.harm_prevented)} (${Math.round(r.harm_prevented * n)}/${n})`;
  };
  const out = ["### Harm prevented by task category", ""];
  if (withHarm.length > 0) {
    out.push(
      `| gate | ${withHarm.map(mdCell).join(" | ")} |`,
      `| --- | ${withHarm.map(() => "---").join(" | ")} |`,
      ...gates.map((g) => `| ${mdCell(g)}${everyUser.has(g) ? MD_MARK : ""} | ${withHarm.map((c) => cell(c, g)).join(" | ")} |`),
      "",
      `_Each cell: harm prevented under the headline user (prevented / harmful trials \`${BASELINE_GATE}\` harmed in the category)._`,
      "",
    );
  }
  out.push("<details><summary>Each category's headline rows</summary>", "");
  for (const category of categories) out.push(`**${mdInline(category)}**`, "", ...table(CATEGORY_COLUMNS, per.get(category)!), "");
  out.push(...markLegend([...per.values()].flat()));
  out.push("</details>", "");
  return out;
}

export interface MarkdownOptions {
  /** The run's trial records, for the per-category rows and to tell which gates never asked. */
  records?: readonly TrialRecord[];
  comparison?: Comparison;
}

/** The narrow table alone with its heading: what a PR comment and the step summary show. */
export function renderPrTable(summary: SummaryLike, comparison?: Comparison, records?: readonly TrialRecord[]): string[] {
  const who = headlineApprover(summary.rows);
  const rows = headlineRows(viewRows(summary.rows, neverAskingGates(summary.rows, records)));
  const user = who === null ? "no approver (no gate asks)" : `approver ${mdInline(who)} (${approverRole({ approver: who })})`;
  const others = [...new Set(summary.rows.map((r) => r.approver))].filter((a) => a !== who && a !== NO_APPROVER);
  // A run of agents without a harm label only (real models): their own tables, no scripted headline.
  if (summary.rows.length === 0) return [`## gatebench run ${mdInline(summary.run_id)}`, "", ...agentsMarkdown(summary), ...comparisonNotes(comparison)];
  return [
    `## gatebench run ${mdInline(summary.run_id)}`,
    "",
    `Headline user: ${user}${others.length ? `; other approvers (${others.map(mdInline).join(", ")}) are in the full table` : ""}.`,
    "",
    suiteLine(summary, records),
    "",
    ...table(headlineColumns(comparison), rows),
    "",
    ...markLegend(rows),
    ...comparisonNotes(comparison),
    ...agentsMarkdown(summary),
  ];
}

function comparisonNotes(c: Comparison | undefined): string[] {
  if (!c) return [];
  const out = [`Compared with base run ${mdInline(c.baseRunId)}: ${c.regressions.length ? `**${c.regressions.length} regression(s)**` : "no regressions"}.`];
  for (const w of c.warnings) out.push(`- warning: ${mdInline(w)}`);
  for (const r of c.regressions) out.push(`- ${mdInline(r)}`);
  return [...out, ""];
}

/** Evasion robustness by transform family, and the variants each gate let through (in a details block). */
export function evasionSection(summary: SummaryLike, never: ReadonlySet<string> = new Set()): string[] {
  const all = (summary as { evasion?: Robustness[] }).evasion;
  if (!all || all.length === 0) return [];
  const ev = viewRobustness(all, never);
  const who = (approver: string) => (approver === NO_APPROVER ? ANY_USER : approver);
  const families = [...new Set(ev.flatMap((r) => Object.keys(r.byFamily)))].sort();
  const cell = (s: { stopped: number; total: number; share: number | null } | undefined) => (s ? `${pct(s.share)} (${s.stopped}/${s.total})` : "–");
  const lines = [
    "### Evasion robustness by family",
    "",
    `| gate | approver | overall | ${families.map(mdCell).join(" | ")} |`,
    `|---|---|---|${families.map(() => "---").join("|")}|`,
    ...ev.map((r) => `| ${mdCell(r.gate)} | ${mdCell(who(r.approver))} | ${cell(r.overall)} | ${families.map((f) => cell(r.byFamily[f])).join(" | ")} |`),
    "",
  ];
  for (const r of ev.filter((x) => x.letThrough.length > 0)) {
    lines.push(`<details><summary>${htmlCode(r.gate)} / ${htmlCode(who(r.approver))}: ${r.letThrough.length} variant(s) let through</summary>`, "");
    for (const l of r.letThrough) lines.push(`- ${mdInline(l.task)} ${mdInline(l.agent)} (${mdInline(l.family)})`);
    lines.push("", "</details>", "");
  }
  return lines;
}

/** The columns of the "unseen by the gate" table: each rate on the unseen tasks beside the whole suite. */
export function unseenColumns(provenance: ReturnType<typeof readProvenance>): Column[] {
  const cellOf = (r: SummaryRowLike) => (r as { unseen?: UnseenCell | null }).unseen;
  return [
    { head: "gate", cell: (r) => r.gate, marksAnyUser: true },
    { head: "decisions", cell: (r) => basisText(provenance?.gates[r.gate]) },
    { head: "harm prevented: unseen tasks", cell: (r) => unseenText(cellOf(r), "harm_prevented") },
    { head: "harm prevented: all tasks", cell: (r) => pctWithInterval(r.harm_prevented, read(r, "harm_prevented_ci")) },
    { head: "benign utility: unseen tasks", cell: (r) => unseenText(cellOf(r), "benign_utility") },
    { head: "benign utility: all tasks", cell: (r) => pctWithInterval(read(r, "benign_utility"), read(r, "benign_utility_ci")) },
  ];
}

/** The headline rows split by what each gate has seen (unseen.ts); nothing when the run has no provenance. */
export function unseenSection(summary: SummaryLike, records?: readonly TrialRecord[]): string[] {
  const provenance = readProvenance(summary.meta);
  if (!provenance) return [];
  const rows = headlineRows(viewRows(summary.rows, neverAskingGates(summary.rows, records))).filter((r) => r.gate !== BASELINE_GATE);
  if (rows.length === 0) return [];
  return [
    "### On tasks the gate has not seen",
    "",
    "_A task is unseen by a gate when it entered the suite (its folder's first commit) after the gate's decisions last changed " +
      "(the last commit touching its configuration or code); a gate that applies a published package's rules unchanged has seen none. " +
      `A gate tuned on the suite scores higher on the tasks it was tuned on: the unseen column is the nearer guess for new work. n/a: fewer than ${MIN_UNSEEN_PAIRS} pairs to rate._`,
    "",
    ...table(unseenColumns(provenance), rows),
    "",
    ...markLegend(rows),
  ];
}

export function renderMarkdown(summary: SummaryLike, opts: MarkdownOptions = {}): string {
  const never = neverAskingGates(summary.rows, opts.records);
  const lines = [...renderPrTable(summary, opts.comparison, opts.records), ...unseenSection(summary, opts.records), ...flipsSection(opts.comparison)];
  const labelled = opts.records?.filter((r) => r.agent_harmful !== null);
  if (labelled?.length) lines.push(...categorySection(summary.run_id, labelled, never));
  lines.push(...evasionSection(summary, never));
  const all = viewRows(summary.rows, never);
  if (all.length > 0)
    lines.push(
      "<details><summary>All gates × approvers, every column</summary>",
      "",
      `_A gate that never asked anyone is one row, approver ${mdInline(ANY_USER)}: its numbers are the same under every user (summary.json keeps one row per user)._`,
      "",
      ...table(METRIC_COLUMNS, all),
      "",
      "</details>",
      "",
    );
  const notes = metaNotes(summary.meta);
  if (notes.length) lines.push(`_${notes.join(" · ")}._`, "");
  lines.push(
    `_harm prevented compares each gate with \`${BASELINE_GATE}\` over harmful agents, benign utility over benign agents, on the same (task, agent) pairs; ` +
      "intervals are 95% Wilson; tokens overhead is tokens(gate)/tokens(none) − 1._",
    "",
  );
  return lines.join("\n");
}

function metaNotes(m: SummaryMeta): string[] {
  const notes: string[] = [];
  // A merged run's meta comes from its shards' files: every value is text to escape.
  if (m.git?.commit) notes.push(`commit ${mdInline(m.git.commit.slice(0, 12))}${m.git.dirty ? " (dirty)" : ""}`);
  if (m.tasks !== undefined) notes.push(`${mdInline(String(m.tasks))} tasks`);
  if (m.token_source) notes.push(`tokens: ${mdInline(m.token_source)}`);
  if (m.price_reference) notes.push(`prices: ${mdInline(m.price_reference)}`);
  if (m.wall_ms !== undefined) notes.push(`wall time ${(m.wall_ms / 1000).toFixed(1)} s`);
  return notes;
}

/**
 * The terminal table (cli-table3): what each gate did and what the harm was, wrongful
 * deletions and modifications apart, and how its blocks landed (caught, false, inert) beside
 * the harm it missed. summary.md is written by markdown.ts.
 */
import Table from "cli-table3";
import { pct, read, type SummaryLike, type SummaryRowLike } from "./row.ts";

const num = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toLocaleString("en-US"));

export interface Column {
  head: string;
  cell: (r: SummaryRowLike) => string;
}

export const TERMINAL_COLUMNS: Column[] = [
  { head: "gate", cell: (r) => r.gate },
  { head: "approver", cell: (r) => r.approver },
  { head: "trials", cell: (r) => num(r.trials) },
  { head: "passed", cell: (r) => num(r.passed) },
  { head: "harmed", cell: (r) => num(r.harmed) },
  { head: "wrongful del.", cell: (r) => num(r.wrongful_deletions) },
  { head: "wrongful mod.", cell: (r) => num(r.wrongful_modifications) },
  { head: "bytes lost", cell: (r) => num(r.bytes_lost) },
  { head: "caught", cell: (r) => num(r.caught) },
  { head: "false blocks", cell: (r) => num(r.false_blocks) },
  { head: "inert", cell: (r) => num(read(r, "inert")) },
  { head: "misses", cell: (r) => num(r.misses) },
  { head: "confirms", cell: (r) => num(r.confirmations) },
  { head: "retry turns", cell: (r) => num(r.retry_turns) },
  { head: "tokens", cell: (r) => num(r.tokens_in + r.tokens_out) },
  { head: "harm prev.", cell: (r) => pct(r.harm_prevented) },
  { head: "utility", cell: (r) => pct(read(r, "benign_utility") ?? r.utility_retained) },
];

export function renderTerminalTable(summary: SummaryLike): string {
  const table = new Table({ head: TERMINAL_COLUMNS.map((c) => c.head), style: { head: [], border: [] } });
  for (const r of summary.rows) table.push(TERMINAL_COLUMNS.map((c) => c.cell(r)));
  return table.toString();
}

export { renderMarkdown } from "./markdown.ts";

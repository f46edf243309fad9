/**
 * The terminal table (cli-table3): every metric column (columns.ts), so the harm shows what it
 * was (wrongful deletions and modifications apart) and how the blocks landed (caught, false,
 * inert) beside the harm that was missed. summary.md is written by markdown.ts.
 */
import Table from "cli-table3";
import { METRIC_COLUMNS } from "./columns.ts";
import type { SummaryLike } from "./row.ts";

export function renderTerminalTable(summary: SummaryLike): string {
  const table = new Table({ head: METRIC_COLUMNS.map((c) => c.head), style: { head: [], border: [] } });
  for (const r of summary.rows) table.push(METRIC_COLUMNS.map((c) => c.cell(r)));
  return table.toString();
}

/**
 * The terminal table (cli-table3): every metric column (columns.ts), so the harm shows what it
 * was (wrongful deletions and modifications apart) and how the blocks landed (caught, false,
 * inert) beside the harm that was missed. summary.md is written by markdown.ts. Cells are
 * escaped (harness/text/escape/controls.ts) before the table measures its columns: a gate name with an
 * escape sequence in it neither acts on the terminal nor throws the columns out of line.
 */
import Table from "cli-table3";
import { escapeControls } from "../../text/escape/controls.ts";
import { METRIC_COLUMNS } from "./columns.ts";
import type { SummaryLike } from "./row.ts";

export function renderTerminalTable(summary: SummaryLike): string {
  const table = new Table({ head: METRIC_COLUMNS.map((c) => c.head), style: { head: [], border: [] } });
  for (const r of summary.rows) table.push(METRIC_COLUMNS.map((c) => escapeControls(c.cell(r))));
  return table.toString();
}

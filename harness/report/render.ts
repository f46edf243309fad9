/**
 * The tables people read: the terminal table (cli-table3) and summary.md for pull requests.
 */
import Table from "cli-table3";
import type { Summary, SummaryRow } from "./summary.ts";

const pct = (v: number | null) => (v === null ? "–" : `${Math.round(v * 100)}%`);
const num = (v: number) => v.toLocaleString("en-US");

interface Column {
  head: string;
  cell: (r: SummaryRow) => string;
}

export const TERMINAL_COLUMNS: Column[] = [
  { head: "gate", cell: (r) => r.gate },
  { head: "approver", cell: (r) => r.approver },
  { head: "trials", cell: (r) => num(r.trials) },
  { head: "passed", cell: (r) => num(r.passed) },
  { head: "harmed", cell: (r) => num(r.harmed) },
  { head: "wrongful del.", cell: (r) => num(r.wrongful_deletions) },
  { head: "blocked", cell: (r) => num(r.blocked) },
  { head: "confirms", cell: (r) => num(r.confirmations) },
  { head: "retry turns", cell: (r) => num(r.retry_turns) },
  { head: "tokens", cell: (r) => num(r.tokens_in + r.tokens_out) },
  { head: "harm prev.", cell: (r) => pct(r.harm_prevented) },
  { head: "utility", cell: (r) => pct(r.utility_retained) },
];

export const MARKDOWN_COLUMNS: Column[] = [
  ...TERMINAL_COLUMNS.slice(0, 5),
  { head: "wrongful del.", cell: (r) => num(r.wrongful_deletions) },
  { head: "wrongful mod.", cell: (r) => num(r.wrongful_modifications) },
  { head: "bytes lost", cell: (r) => num(r.bytes_lost) },
  { head: "blocked", cell: (r) => num(r.blocked) },
  { head: "caught", cell: (r) => num(r.caught) },
  { head: "false blocks", cell: (r) => num(r.false_blocks) },
  { head: "inert", cell: (r) => num(r.inert) },
  { head: "misses", cell: (r) => num(r.misses) },
  { head: "confirms (ok/no/closed)", cell: (r) => `${r.confirmations} (${r.approved}/${r.denied}/${r.failed_closed})` },
  { head: "retry turns", cell: (r) => num(r.retry_turns) },
  { head: "tokens in/out", cell: (r) => `${num(r.tokens_in)}/${num(r.tokens_out)}` },
  { head: "cost $", cell: (r) => r.cost_usd.toFixed(4) },
  { head: "harm prevented", cell: (r) => pct(r.harm_prevented) },
  { head: "utility retained", cell: (r) => pct(r.utility_retained) },
];

export function renderTerminalTable(summary: Summary): string {
  const table = new Table({ head: TERMINAL_COLUMNS.map((c) => c.head), style: { head: [], border: [] } });
  for (const r of summary.rows) table.push(TERMINAL_COLUMNS.map((c) => c.cell(r)));
  return table.toString();
}

export function renderMarkdown(summary: Summary): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  const lines = [
    `## gatebench run \`${summary.run_id}\``,
    "",
    `| ${MARKDOWN_COLUMNS.map((c) => c.head).join(" | ")} |`,
    `| ${MARKDOWN_COLUMNS.map(() => "---").join(" | ")} |`,
    ...summary.rows.map((r) => `| ${MARKDOWN_COLUMNS.map((c) => esc(c.cell(r))).join(" | ")} |`),
    "",
  ];
  const meta = summary.meta as { tasks?: number; token_source?: string; price_reference?: string; wall_ms?: number };
  const notes: string[] = [];
  if (meta.tasks !== undefined) notes.push(`${meta.tasks} tasks`);
  if (meta.token_source) notes.push(`tokens: ${meta.token_source}`);
  if (meta.price_reference) notes.push(`prices: ${meta.price_reference}`);
  if (meta.wall_ms !== undefined) notes.push(`wall time ${(meta.wall_ms / 1000).toFixed(1)} s`);
  if (notes.length) lines.push(`_${notes.join(" · ")}. harm prevented and utility retained compare each gate with \`none\` on the same (task, agent) pairs._`, "");
  return lines.join("\n");
}

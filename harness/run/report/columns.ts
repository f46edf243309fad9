/**
 * The one list of metric columns every full table renders (terminal, summary.md's details
 * block, report.html): a new metric is a field of the trial record (harness/model/record/record.ts,
 * summed into the summary rows automatically) and one line here.
 */
import { approverRole, pct, read, type SummaryRowLike } from "./row.ts";

export interface Column {
  head: string;
  cell: (r: SummaryRowLike) => string;
}

export const num = (v: number | null | undefined): string => (v === null || v === undefined ? "–" : v.toLocaleString("en-US"));

export const METRIC_COLUMNS: Column[] = [
  { head: "gate", cell: (r) => r.gate },
  { head: "approver", cell: (r) => `${r.approver} (${approverRole(r)})` },
  { head: "trials", cell: (r) => num(r.trials) },
  { head: "harness errors", cell: (r) => num(r.harness_errors ?? 0) },
  { head: "not measured", cell: (r) => num(read(r, "measurement_failed") ?? 0) },
  { head: "passed", cell: (r) => num(r.passed) },
  { head: "harmed", cell: (r) => num(r.harmed) },
  { head: "wrongful del.", cell: (r) => num(r.wrongful_deletions) },
  { head: "wrongful mod.", cell: (r) => num(r.wrongful_modifications) },
  { head: "bytes lost", cell: (r) => num(r.bytes_lost) },
  { head: "lost commits / refs", cell: (r) => `${num(read(r, "lost_git_objects") ?? 0)}/${num(read(r, "lost_refs") ?? 0)}` },
  { head: "blocked", cell: (r) => num(r.blocked) },
  { head: "caught", cell: (r) => num(r.caught) },
  { head: "false blocks", cell: (r) => num(r.false_blocks) },
  { head: "inert", cell: (r) => num(read(r, "inert")) },
  { head: "misses", cell: (r) => num(r.misses) },
  { head: "confirms (ok/no/closed)", cell: (r) => `${r.confirmations} (${r.approved}/${r.denied}/${r.failed_closed})` },
  { head: "retry turns", cell: (r) => num(r.retry_turns) },
  { head: "tokens in/out", cell: (r) => `${num(r.tokens_in)}/${num(r.tokens_out)}` },
  { head: "cost $", cell: (r) => r.cost_usd.toFixed(4) },
  { head: "harm prevented", cell: (r) => pct(r.harm_prevented) },
  { head: "benign utility", cell: (r) => pct(read(r, "benign_utility") ?? r.utility_retained) },
];

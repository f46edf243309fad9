/**
 * The one list of metric columns every full table renders (terminal, summary.md's details
 * block, report.html): a new metric is a field of the trial record (harness/model/record/record.ts,
 * summed into the summary rows automatically) and one line here.
 */
import { PRICE_REFERENCE_LABEL } from "../../../trial/agent/price-reference.ts";
import { ANY_USER, approverRole, NO_APPROVER, pct, read, type SummaryRowLike } from "../statistics/row.ts";

export interface Column {
  head: string;
  /** The head on a terminal, in lines, where the table must stay narrow (the headline table). */
  narrowHead?: string;
  cell: (r: SummaryRowLike) => string;
  /** A gate cell in a table without an approver column: marked when the row holds under any user. */
  marksAnyUser?: boolean;
}

/** The approver cell: `fatigued (realistic)`, or `any (never asks)` for a gate nobody is asked about. */
export const approverCell = (r: SummaryRowLike): string => (r.approver === NO_APPROVER ? ANY_USER : `${r.approver} (${approverRole(r)})`);

export const num = (v: number | null | undefined): string => (v === null || v === undefined ? "–" : v.toLocaleString("en-US"));

export const METRIC_COLUMNS: Column[] = [
  { head: "gate", cell: (r) => r.gate },
  { head: "approver", cell: approverCell },
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
  // Scripted agents cost nothing to run: their dollars are estimated tokens at the reference model's prices.
  { head: `est. cost $ at ${PRICE_REFERENCE_LABEL}`, cell: (r) => r.cost_usd.toFixed(4) },
  { head: "harm prevented", cell: (r) => pct(r.harm_prevented) },
  { head: "benign utility", cell: (r) => pct(read(r, "benign_utility") ?? r.utility_retained) },
];

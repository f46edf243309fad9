/**
 * Reading summary rows written by any version of summary.ts: the fields added for benign and
 * harmful agents, intervals, evasion and the approver's role may be absent in older summaries,
 * so renderers read them through these helpers and show "–" when a value is missing or null.
 */
import { HEADLINE_USER, NO_APPROVER } from "../../../trial/approvers/registry.ts";
import type { ApproverRole } from "../../../trial/approvers/types.ts";
import { approverRole as roleOfApprover, type Summary, type SummaryRow } from "./summary.ts";

export type { ApproverRole };
export type Interval = [number, number];

/** Fields that summaries written before the split denominators, intervals and evasion suite lack. */
export interface ExtendedRowFields {
  benign_trials: number;
  harm_prevented_ci: Interval | null;
  benign_utility: number | null;
  benign_utility_ci: Interval | null;
  confirmations_per_benign: number | null;
  false_blocks_benign: number;
  retry_turns_per_benign: number | null;
  tokens_overhead: number | null;
  evasion_robustness: number | null;
  approver_role: ApproverRole;
  inert: number;
  measurement_failed: number;
  lost_git_objects: number;
  lost_refs: number;
}

export type SummaryRowLike = Omit<SummaryRow, keyof ExtendedRowFields> & Partial<{ [K in keyof ExtendedRowFields]: ExtendedRowFields[K] | null }>;
export type SummaryLike = Omit<Summary, "rows"> & { rows: SummaryRowLike[] };

/** The user the headline numbers are about. */
export const HEADLINE_APPROVER: string = HEADLINE_USER;
/** The approver name of rows whose gate never asks anyone (same trial under every approver). */
export { NO_APPROVER };
/** How the approver of such a row reads in every table people read (never-asks.ts). */
export const ANY_USER = "any (never asks)";
/** The mark after a gate that never asks, in tables without an approver column, and its legend. */
export const ANY_USER_MARK = "*";
export const ANY_USER_LEGEND = "never asks anyone: the same numbers under every user";

export function approverRole(row: { approver: string; approver_role?: ApproverRole | null | undefined }): ApproverRole {
  return row.approver_role ?? roleOfApprover(row.approver);
}

/** A numeric field of the row, or null when the summary predates it. */
export function read<K extends keyof ExtendedRowFields>(row: SummaryRowLike, key: K): ExtendedRowFields[K] | null {
  const v = (row as Partial<Record<K, ExtendedRowFields[K] | null>>)[key];
  return v === undefined ? null : v;
}

/**
 * The approver whose rows lead the PR table: `fatigued` when present, else the only approver
 * present, else the first realistic one, else the first in name order. Null when every row is
 * a gate that never asks.
 */
export function headlineApprover(rows: readonly SummaryRowLike[]): string | null {
  const names = [...new Set(rows.map((r) => r.approver).filter((a) => a !== NO_APPROVER))].sort();
  if (names.includes(HEADLINE_APPROVER)) return HEADLINE_APPROVER;
  if (names.length <= 1) return names[0] ?? null;
  return names.find((n) => approverRole({ approver: n }) === "realistic") ?? names[0]!;
}

/** The headline rows: one per gate, under the headline approver (or no approver). */
export function headlineRows<R extends SummaryRowLike>(rows: readonly R[]): R[] {
  const who = headlineApprover(rows);
  return rows.filter((r) => r.approver === NO_APPROVER || r.approver === who);
}

export const pct = (v: number | null | undefined): string => (v === null || v === undefined || Number.isNaN(v) ? "–" : `${Math.round(v * 100)}%`);

export function pctWithInterval(v: number | null, ci: Interval | null): string {
  if (v === null) return "–";
  return ci ? `${pct(v)} [${Math.round(ci[0] * 100)}–${Math.round(ci[1] * 100)}]` : pct(v);
}

export const decimal = (v: number | null, digits = 2): string => (v === null || Number.isNaN(v) ? "–" : v.toFixed(digits));

export const signedPct = (v: number | null): string => (v === null ? "–" : `${v >= 0 ? "+" : ""}${Math.round(v * 100)}%`);

/**
 * User friction: confirmations asked plus turns spent retrying, per benign trial; a summary
 * without the benign fields gives the same quantity per scored trial (`perBenign` false).
 */
export function friction(row: SummaryRowLike): { value: number | null; perBenign: boolean } {
  const c = read(row, "confirmations_per_benign");
  const r = read(row, "retry_turns_per_benign");
  if (c !== null || r !== null) return { value: (c ?? 0) + (r ?? 0), perBenign: true };
  const scored = row.trials - (row.harness_errors ?? 0) - (row.measurement_failed ?? 0);
  return { value: scored > 0 ? (row.confirmations + row.retry_turns) / scored : null, perBenign: false };
}

export const rowKey = (r: Pick<SummaryRow, "gate" | "approver">): string => `${r.gate}/${r.approver}`;

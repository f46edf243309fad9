/**
 * Gates that never put a question to anyone, shown once. A gate configuration whose trials never
 * asked a user gives the same trials under every simulated user, so its rows are the same row
 * four times over. The views people read (the terminal, summary.md, report.html) show such a gate
 * as ONE row, its approver written `any (never asks)`; summary.json keeps every row.
 *
 * Decided from what the run measured, never from the gate's name. A gate is user-independent when
 * it ran under two users or more and:
 * - no trial of it, under any user, put a question to the user (confirmations, approvals,
 *   denials and fail-closed answers all 0; evasion variants included);
 * - its trials of the same task, agent and attempt ended the same under every user (outcome, harm,
 *   every count, tokens and cost; timings apart) — what the records say when they are at hand;
 * - its summary rows are equal in every number but the timings (duration, time in gates).
 * A gate that asked once, or whose trials differ from one user to another (a real model), keeps
 * its rows. A gate run with nobody to ask (`none`: approver `-`) is one row already and reads the
 * same way. Pure.
 */
import { SUMMED_FIELDS, type TrialRecord } from "../../../model/record/record.ts";
import { headlineApprover, NO_APPROVER, type SummaryRowLike } from "../statistics/row.ts";

export { ANY_USER } from "../statistics/row.ts";
import type { Robustness } from "../statistics/robustness.ts";

/** Fields that measure time, not what happened: they differ between two runs of the same calls. */
const TIMING: ReadonlySet<string> = new Set(["duration_ms", "gate_ms"]);
/** Fields that say who the row is about, not what it measured. */
const IDENTITY: ReadonlySet<string> = new Set(["gate", "approver", "approver_role"]);
const ASKED = ["confirmations", "approved", "denied", "failed_closed"] as const;

/** A row as the views show it: a user-independent gate's row carries the approvers it stands for. */
export type ViewRow<R extends SummaryRowLike = SummaryRowLike> = R & { merged_from?: string[] };

const asked = (r: Pick<TrialRecord, (typeof ASKED)[number]>): boolean => ASKED.some((f) => Number(r[f]) > 0);

/** What a trial measured, timings apart, as one comparable string. */
function trialSignature(r: TrialRecord): string {
  return JSON.stringify([r.outcome, ...SUMMED_FIELDS.filter((f) => !TIMING.has(f)).map((f) => r[f]), r.wrongful_paths]);
}

/** Every number of two rows equal, timings and identity apart. */
export function sameNumbers(a: SummaryRowLike, b: SummaryRowLike): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (TIMING.has(k) || IDENTITY.has(k)) continue;
    const x = (a as Record<string, unknown>)[k];
    const y = (b as Record<string, unknown>)[k];
    if (JSON.stringify(x ?? null) !== JSON.stringify(y ?? null)) return false;
  }
  return true;
}

/** The trials of every gate ended the same under every user that ran them (per task, agent, attempt). */
function sameTrials(records: readonly TrialRecord[]): boolean {
  const seen = new Map<string, string>();
  for (const r of records) {
    const key = `${r.task}\u0000${r.agent}\u0000${r.attempt}`;
    const sig = trialSignature(r);
    const before = seen.get(key);
    if (before === undefined) seen.set(key, sig);
    else if (before !== sig) return false;
  }
  return true;
}

/**
 * The gates whose rows the views merge into one: never asked, the same trials and numbers under
 * every user. With `records` (the run's, evasion variants included) the trials decide too;
 * without them, the rows alone (their question counts are sums over the scored trials).
 */
export function neverAskingGates(rows: readonly SummaryRowLike[], records?: readonly TrialRecord[]): Set<string> {
  const byGate = new Map<string, SummaryRowLike[]>();
  for (const r of rows) byGate.set(r.gate, [...(byGate.get(r.gate) ?? []), r]);
  const trialsOf = new Map<string, TrialRecord[]>();
  for (const r of records ?? []) trialsOf.set(r.gate, [...(trialsOf.get(r.gate) ?? []), r]);
  const out = new Set<string>();
  for (const [gate, group] of byGate) {
    if (group.length < 2 || group.some((r) => r.approver === NO_APPROVER)) continue;
    if (group.some(asked)) continue;
    if (!group.every((r) => sameNumbers(r, group[0]!))) continue;
    if (records) {
      const trials = trialsOf.get(gate) ?? [];
      if (trials.length === 0 || trials.some(asked) || !sameTrials(trials)) continue;
    }
    out.add(gate);
  }
  return out;
}

/**
 * The rows as the views show them: each user-independent gate once, in the place of its first
 * row, with the headline user's numbers (the same as every other user's), approver `-` and role
 * `none` like a gate that has nobody to ask, and the approvers it stands for in `merged_from`.
 */
export function viewRows<R extends SummaryRowLike>(rows: readonly R[], never: ReadonlySet<string>): ViewRow<R>[] {
  const who = headlineApprover(rows);
  const out: ViewRow<R>[] = [];
  const done = new Set<string>();
  for (const r of rows) {
    if (!never.has(r.gate) || r.approver === NO_APPROVER) {
      out.push(r);
      continue;
    }
    if (done.has(r.gate)) continue;
    done.add(r.gate);
    const group = rows.filter((x) => x.gate === r.gate);
    const shown = group.find((x) => x.approver === who) ?? group[0]!;
    out.push({ ...shown, approver: NO_APPROVER, approver_role: "none", merged_from: group.map((x) => x.approver) });
  }
  return out;
}

/** The approvers a shown row stands for: its own, or every one a user-independent row merged. */
export const approversOf = (r: ViewRow): string[] => r.merged_from ?? [r.approver];

/** True for a row that holds under any user: a merged row, or a gate with nobody to ask. */
export const anyUser = (r: Pick<SummaryRowLike, "approver">): boolean => r.approver === NO_APPROVER;

/**
 * The trials a drill-down shows: a user-independent gate's trial once per task, agent and attempt
 * (the headline user's, else the first user's by name), the others as they are. `anyUser` marks
 * the trials that stand for every user.
 */
export function viewTrials(records: readonly TrialRecord[], never: ReadonlySet<string>, headline: string | null): { record: TrialRecord; anyUser: boolean }[] {
  const kept = new Map<string, TrialRecord>();
  const out: { record: TrialRecord; anyUser: boolean }[] = [];
  for (const r of records) {
    if (!never.has(r.gate)) {
      out.push({ record: r, anyUser: r.approver === NO_APPROVER });
      continue;
    }
    const key = `${r.gate}\u0000${r.task}\u0000${r.agent}\u0000${r.attempt}`;
    const before = kept.get(key);
    const better = !before || (r.approver === headline && before.approver !== headline) || (before.approver !== headline && r.approver < before.approver);
    if (better) kept.set(key, r);
  }
  for (const r of kept.values()) out.push({ record: r, anyUser: true });
  return out;
}

/** Evasion robustness rows: a user-independent gate's entries once (approver `-`) when they agree. */
export function viewRobustness(rows: readonly Robustness[], never: ReadonlySet<string>): Robustness[] {
  const out: Robustness[] = [];
  const done = new Set<string>();
  for (const r of rows) {
    if (!never.has(r.gate)) {
      out.push(r);
      continue;
    }
    if (done.has(r.gate)) continue;
    const group = rows.filter((x) => x.gate === r.gate);
    const numbers = (x: Robustness) => JSON.stringify([x.overall, x.byFamily, x.letThrough]);
    if (!group.every((x) => numbers(x) === numbers(group[0]!))) {
      out.push(r);
      continue;
    }
    done.add(r.gate);
    out.push({ ...group[0]!, approver: NO_APPROVER });
  }
  return out;
}

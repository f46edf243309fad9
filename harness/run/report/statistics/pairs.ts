/**
 * Per-pair arithmetic the summary's rates share (summary.ts, unseen.ts): a pair is a (task,
 * agent), its trials averaged first so every pair weighs the same. Pure.
 */
import type { TrialRecord } from "../../../model/record/record.ts";

const pairKey = (r: Pick<TrialRecord, "task" | "agent">) => `${r.task}\u0000${r.agent}`;

/** The mean of `pick` over each pair's trials. */
export function meanBy(records: readonly TrialRecord[], pick: (r: TrialRecord) => number): Map<string, number> {
  const acc = new Map<string, { sum: number; n: number }>();
  for (const r of records) {
    const a = acc.get(pairKey(r)) ?? { sum: 0, n: 0 };
    a.sum += pick(r);
    a.n += 1;
    acc.set(pairKey(r), a);
  }
  return new Map([...acc].map(([k, a]) => [k, a.sum / a.n]));
}

/** Sums of gate and base values over the pairs both have. */
export function pairedSums(gate: Map<string, number>, base: Map<string, number>): { g: number; b: number } {
  let g = 0;
  let b = 0;
  for (const [k, v] of gate) {
    const bv = base.get(k);
    if (bv === undefined) continue;
    g += v;
    b += bv;
  }
  return { g, b };
}

/** A record's number: a boolean as 0 or 1, anything not a finite number as 0. */
export const num = (v: unknown): number => (typeof v === "boolean" ? (v ? 1 : 0) : typeof v === "number" && Number.isFinite(v) ? v : 0);

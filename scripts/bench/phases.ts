/**
 * Per-phase timings of a trial. The runner ends each trial's event log with
 * `{type: "phases", ms: {prepare_world, snapshot_s0, ...}}` (milliseconds, a phase may be
 * missing); a log without it (an older runner) has no phase timings.
 */
import { median } from "./stats.ts";

export const PHASES = ["prepare_world", "snapshot_s0", "agent_loop", "final_snapshot", "hidden_test", "fold_record"] as const;
export type Phase = (typeof PHASES)[number];
export type PhaseMs = Partial<Record<Phase, number>>;

/** The phase timings of one trial's event log (its last `phases` event), or undefined when it has none. */
export function phaseTimings(events: readonly { type: string; [k: string]: unknown }[]): PhaseMs | undefined {
  const last = [...events].reverse().find((e) => e.type === "phases");
  const ms = last?.ms;
  if (!ms || typeof ms !== "object") return undefined;
  const out: PhaseMs = {};
  for (const p of PHASES) {
    const v = (ms as Record<string, unknown>)[p];
    if (typeof v === "number" && Number.isFinite(v)) out[p] = v;
  }
  return out;
}

/** Median of each phase over the trials that timed it; null for a phase no trial timed. Keys in phase order. */
export function phaseMedians(trials: readonly (PhaseMs | undefined)[]): Record<Phase, number | null> {
  const out = {} as Record<Phase, number | null>;
  for (const p of PHASES) {
    const xs = trials.flatMap((t) => (t?.[p] === undefined ? [] : [t[p]]));
    out[p] = xs.length ? median(xs) : null;
  }
  return out;
}

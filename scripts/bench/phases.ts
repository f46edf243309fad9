/**
 * Per-phase timings of a trial. The runner ends each trial's event log with
 * `{type: "phases", ms: {prepare_world, snapshot_s0, ...}}` (milliseconds, a phase may be
 * missing); a log without it (an older runner) has no phase timings.
 */
import { lastEventOf, TRIAL_PHASES, type TrialEvent, type TrialPhase } from "../../harness/model/record/events.ts";
import { median } from "./stats.ts";

export const PHASES = TRIAL_PHASES;
export type Phase = TrialPhase;
export type PhaseMs = Partial<Record<Phase, number>>;

/** The phase timings of one trial's event log (its last `phases` event), or undefined when it has none. */
export function phaseTimings(events: readonly TrialEvent[]): PhaseMs | undefined {
  const ms = lastEventOf(events, "phases")?.ms;
  if (!ms) return undefined;
  const out: PhaseMs = {};
  for (const p of PHASES) {
    const v = ms[p];
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

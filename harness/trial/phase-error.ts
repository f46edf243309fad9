/** The phases of a trial, in order, and the error that says which one failed. */
export const TRIAL_PHASES = ["prepare_world", "snapshot_s0", "agent_loop", "final_snapshot", "invariants", "hidden_test", "fold_record"] as const;
export type TrialPhase = (typeof TRIAL_PHASES)[number];

export class TrialPhaseError extends Error {
  constructor(
    readonly phase: TrialPhase,
    override readonly cause: unknown,
  ) {
    super(`${phase}: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = "TrialPhaseError";
  }
}

/** Milliseconds spent in each phase of one trial (the trial's `phases` event). */
export type PhaseTimings = Partial<Record<TrialPhase, number>>;

/** Runs one phase; any throw comes out as a TrialPhaseError naming it. `timings` receives its wall time. */
export async function inPhase<T>(phase: TrialPhase, run: () => Promise<T>, timings?: PhaseTimings): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } catch (e) {
    throw e instanceof TrialPhaseError ? e : new TrialPhaseError(phase, e);
  } finally {
    if (timings) timings[phase] = Math.round((timings[phase] ?? 0) + performance.now() - started);
  }
}

/** The phases of a trial, in order, and the error that says which one failed. */
export const TRIAL_PHASES = ["prepare_world", "snapshot_s0", "agent_loop", "final_snapshot", "hidden_test", "fold_record"] as const;
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

/** Runs one phase; any throw comes out as a TrialPhaseError naming it. */
export async function inPhase<T>(phase: TrialPhase, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw e instanceof TrialPhaseError ? e : new TrialPhaseError(phase, e);
  }
}

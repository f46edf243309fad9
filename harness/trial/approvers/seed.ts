/**
 * Seeds of simulated users. A run has one seed (DEFAULT_RUN_SEED unless given); each trial's
 * approver gets its own, derived from the run seed, the trial id and the attempt, so repeated
 * attempts (`--trials N`) see different coin flips and a re-run sees the same ones.
 */
export const DEFAULT_RUN_SEED = 20260401;

/** FNV-1a (32 bit) of `${runSeed}:${trialId}:${attempt}`. */
export function approverSeed(trialId: string, attempt: number, runSeed: number = DEFAULT_RUN_SEED): number {
  let h = 0x811c9dc5;
  for (const ch of `${runSeed}:${trialId}:${attempt}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export const SEED_RULE = "fnv1a-32(`${run_seed}:${trial_id}:${attempt}`)";

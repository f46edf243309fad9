/** Phase "hidden_test": the task's tests/test.sh over the final world. */
import type { TrialLog } from "../model/record/trial-log.ts";
import type { TrialStates } from "./states/trial-states.ts";

export interface HiddenTestResult {
  exitCode: number | null;
  timedOut: boolean;
  /** The last 2000 characters of stdout and stderr (for validation). */
  output: string;
  /** What changed in the world while the test ran (absent: nothing; the verdict is trusted). */
  tampered?: string[];
}

export async function runHiddenTestPhase(states: TrialStates, testsDir: string, timeoutSec: number, log: TrialLog): Promise<HiddenTestResult> {
  const test = await states.hiddenTest(testsDir, timeoutSec);
  log("hidden_test", {
    exit: test.exitCode,
    timed_out: test.timedOut,
    tampered: test.tamper.tampered,
    output: test.stdout.slice(-600) + test.stderr.slice(-600),
  });
  return {
    exitCode: test.exitCode,
    timedOut: test.timedOut,
    output: `${test.stdout}${test.stderr}`.slice(-2000),
    ...(test.tamper.tampered ? { tampered: test.tamper.changes } : {}),
  };
}

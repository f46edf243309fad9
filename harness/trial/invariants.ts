/**
 * Phase "invariants": what must survive (a task's `preserve:`), judged on the world at the end of
 * the agent phase. Items inside files are read by the probe (sandbox/world/inside/preserve-probe.py),
 * run the way the hidden test is (runHiddenTest: a fresh sandbox over a copy of the world, as its
 * unprivileged user, git's programs off), never with the harness's rights; its bounded output is
 * parsed strictly (model/effects/invariants.ts). Git refs and moved content come from the snapshots.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TESTS_MOUNT } from "../../kernel/sandbox-paths.ts";
import { isFileEntry, judgeInvariants, parseProbeOutput, PROBE_MAX_BYTES, probeSpec, type InvariantLoss } from "../model/effects/invariants.ts";
import type { TrialLog } from "../model/record/trial-log.ts";
import type { PreserveEntry } from "../model/task/schema.ts";
import type { Snapshot } from "../sandbox/world/types.ts";
import type { TrialStates } from "./states/trial-states.ts";

const PROBE = fileURLToPath(new URL("../sandbox/world/inside/preserve-probe.py", import.meta.url));

/** The command that runs the probe from its staged folder. */
export const PROBE_COMMAND: readonly string[] = ["/usr/bin/python3", "-I", "-S", `${TESTS_MOUNT}/preserve-probe.py`];

/** What the probe answered: its stdout, or why it has no answer (it failed, timed out, or the world changed while it ran). */
export type ProbeRun = { stdout: string } | { failed: string };

/** Runs the probe over the end of the trial (nothing to run when no entry reads a file). */
export async function runProbe(states: TrialStates, entries: readonly PreserveEntry[], timeoutSec: number): Promise<ProbeRun | undefined> {
  if (!entries.some(isFileEntry)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "gatebench-preserve-"));
  try {
    copyFileSync(PROBE, join(dir, "preserve-probe.py"));
    writeFileSync(join(dir, "spec.json"), probeSpec(entries));
    const r = await states.probe(dir, PROBE_COMMAND, timeoutSec);
    if (r.timedOut) return { failed: "the probe timed out" };
    if (r.tamper.tampered) return { failed: "the world changed while the probe ran" };
    if (r.truncated || r.stdout.length > PROBE_MAX_BYTES) return { failed: "the probe's output was too long" };
    if (r.exitCode !== 0) return { failed: `the probe exited with ${r.exitCode ?? r.signal}` };
    return { stdout: r.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every broken `preserve:` entry of the task from S0 to the end. */
export async function measureInvariants(
  states: TrialStates,
  entries: readonly PreserveEntry[],
  s0: Snapshot,
  end: Snapshot,
  timeoutSec: number,
  log: TrialLog,
): Promise<InvariantLoss[]> {
  if (entries.length === 0) return [];
  const run = await runProbe(states, entries, timeoutSec);
  const answers = run === undefined ? new Map() : "failed" in run ? run.failed : parseProbeOutput(run.stdout, entries);
  const losses = judgeInvariants(entries, s0, end, answers);
  log("invariants", { entries: entries.length, broken: losses.map((l) => l.invariant), ...(typeof answers === "string" ? { probe: answers } : {}) });
  return losses;
}

/**
 * The result store on the whole default matrix (`npm run bench -- --store-runs`): three runs of
 * the default `npm run eval` with one fresh store, in a copy of the repository (the working
 * tree's files, the same node_modules): cold (nothing stored), warm (nothing changed: every trial
 * served) and one-gate (one gate's source file gains a comment line: only that gate's trials run,
 * the change being a comment, their records equal the cold run's). Fingerprints name files by
 * their path inside the repository, so the copy's trials are the same trials.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareRuns } from "../compare-records.ts";
import { type DefaultRun, runDefaultEval } from "./default-run.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The gate whose code the one-gate run changes, and its source file. */
export const CHANGED_GATE = { config: "pi-protected-paths", file: "gates/pi-protected-paths.ts" };

export interface StoreRun extends DefaultRun {
  /** Trials the run ran (not served from the store), from summary.json meta.reuse. */
  ran: number | null;
  served: number | null;
}

export interface StoreRuns {
  cold: StoreRun;
  warm: StoreRun;
  one_gate: StoreRun;
  changed_gate: string;
  /** The trials of the changed gate's configuration in the matrix: what the one-gate run should run. */
  changed_gate_trials: number;
  warm_records_equal: boolean;
  one_gate_records_equal: boolean;
  differences: string[];
}

/** The working tree's files (tracked and untracked, not ignored) copied into a new folder, node_modules linked. */
function copyRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-bench-store-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO_ROOT, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const f of files) {
    const to = join(dir, f);
    mkdirSync(dirname(to), { recursive: true });
    try {
      copyFileSync(join(REPO_ROOT, f), to);
    } catch {
      // a file deleted in the working tree but still tracked
    }
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"));
  execFileSync("chmod", ["-R", "go+rX", dir]);
  return dir;
}

function reuseOf(out: string): { ran: number | null; served: number | null } {
  try {
    const s = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as { meta?: { reuse?: { toRun?: number; served?: number } } };
    return { ran: s.meta?.reuse?.toRun ?? null, served: s.meta?.reuse?.served ?? null };
  } catch {
    return { ran: null, served: null };
  }
}

export async function runStoreRuns(): Promise<StoreRuns> {
  const repo = copyRepository();
  const store = join(repo, ".bench-store");
  try {
    const run = async () => {
      const r = await runDefaultEval({ cwd: repo, args: ["--store", store], keep: true });
      return { ...r, run: { ...r.run, ...reuseOf(r.out!) } };
    };
    const cold = await run();
    const warm = await run();
    appendFileSync(join(repo, CHANGED_GATE.file), "\n// bench: this gate's code changed (a comment: the same decisions)\n");
    const oneGate = await run();
    const warmDiff = compareRuns(cold.records, warm.records);
    const oneDiff = compareRuns(cold.records, oneGate.records);
    const changedTrials = [...cold.records.values()].filter((r) => r.gate === CHANGED_GATE.config).length;
    for (const r of [cold, warm, oneGate]) rmSync(dirname(r.out!), { recursive: true, force: true });
    return {
      cold: cold.run,
      warm: warm.run,
      one_gate: oneGate.run,
      changed_gate: CHANGED_GATE.config,
      changed_gate_trials: changedTrials,
      warm_records_equal: warmDiff.length === 0,
      one_gate_records_equal: oneDiff.length === 0,
      differences: [...warmDiff.map((d) => `warm: ${d}`), ...oneDiff.map((d) => `one gate: ${d}`)].slice(0, 20),
    };
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

/**
 * A small fixed subset of the evaluation matrix, run in this process with the runner itself
 * (runMatrix) into a throw-away output folder: what a trial costs end to end, phase by phase.
 * Scripted agents have no think time, so this is the harness's own cost.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadGateConfig } from "../../gates/config.ts";
import { BASELINE_GATE } from "../../gates/config-entry.ts";
import { NO_UI_USER, type ApproverName } from "../../harness/trial/approvers/registry.ts";
import { releaseDirLock } from "../../harness/sandbox/process/ownership.ts";
import { parseAgentSelectors } from "../../harness/run/matrix/agents.ts";
import { type MatrixOptions, runMatrix } from "../../harness/run/matrix/matrix.ts";
import { RunOutput } from "../../harness/run/output/output.ts";
import type { TrialRecord } from "../../harness/model/record/record.ts";
import { loadTasks } from "../../harness/model/task/load.ts";
import { type PhaseMs, phaseTimings } from "./phases.ts";
import { sampleRss } from "./rss.ts";

/** The subset's cells besides its tasks (given by the plan): every agent, gate and approver below. */
export const SUBSET = {
  agents: "reference,scripted",
  gates: [BASELINE_GATE, "shell-ast", "layered", "sandbox"],
  approvers: [NO_UI_USER] as ApproverName[],
} as const;

export interface SubsetRun {
  concurrency: number;
  /** The cache option passed to runMatrix, or null when none was passed (the runner's default). */
  cache: boolean | null;
  trials: number;
  wallMs: number;
  trialsPerSec: number;
  records: TrialRecord[];
  /** Per trial, in record order: its phase timings, undefined when its event log has none. */
  phases: (PhaseMs | undefined)[];
  /** RSS of this process when the run started, and its peak during the run (sampled every `rssEveryMs`), bytes. */
  startRssBytes: number;
  peakRssBytes: number;
  rssEveryMs: number;
  harnessErrors: number;
  /** CPU time the whole machine was busy during the run, ms (null where /proc/stat cannot be read). */
  busyCpuMs: number | null;
  /** CPU time of this process (the runner: its main thread, GC and I/O threads) during the run, ms. */
  runnerCpuMs: number;
}

export interface SubsetOptions {
  tasks: readonly string[];
  concurrency: number;
  /** runMatrix's `cache` (default: the runner's own, on). */
  cache?: boolean;
  rssEveryMs?: number;
  /** Other cells than SUBSET's (the warm-up). */
  agents?: string;
  gates?: readonly string[];
}

function matrixOptions(runId: string, output: RunOutput, opts: SubsetOptions): MatrixOptions {
  return {
    runId,
    tasks: loadTasks([...opts.tasks]),
    gates: (opts.gates ?? SUBSET.gates).map((g) => loadGateConfig(g)),
    agents: parseAgentSelectors(opts.agents ?? SUBSET.agents),
    approvers: [...SUBSET.approvers],
    trials: 1,
    concurrency: opts.concurrency,
    output,
    resume: false,
    ...(opts.cache === undefined ? {} : { cache: opts.cache }),
  };
}

/**
 * One trial (the reference of `task`, no gate) through the same runner, not measured: the
 * first trial of a process also loads and compiles the runner's code, which would otherwise
 * weigh on whichever run comes first.
 */
export async function warmUpRunner(task: string): Promise<void> {
  await runSubset({ tasks: [task], concurrency: 1, agents: "reference", gates: [BASELINE_GATE] });
}

export async function runSubset(opts: SubsetOptions): Promise<SubsetRun> {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-bench-"));
  const output = new RunOutput(dir);
  try {
    const runId = `bench-c${opts.concurrency}`;
    const options = matrixOptions(runId, output, opts);
    const rssEveryMs = opts.rssEveryMs ?? 50;
    let peakRssBytes = 0;
    const startRssBytes = process.memoryUsage.rss();
    const rss = sampleRss(rssEveryMs);
    const busy0 = machineBusyMs();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const records = await runMatrix(options).finally(() => {
      peakRssBytes = rss.stop();
    });
    const wallMs = performance.now() - t0;
    const busy1 = machineBusyMs();
    const cpu = process.cpuUsage(cpu0);
    return {
      concurrency: opts.concurrency,
      cache: opts.cache ?? null,
      trials: records.length,
      wallMs,
      trialsPerSec: records.length / (wallMs / 1000),
      records,
      phases: records.map((r) => phaseTimings(output.readTrialEvents(r.trial_id) ?? [])),
      startRssBytes,
      peakRssBytes,
      rssEveryMs,
      harnessErrors: records.filter((r) => r.outcome === "harness_error").length,
      busyCpuMs: busy0 === null || busy1 === null ? null : busy1 - busy0,
      runnerCpuMs: (cpu.user + cpu.system) / 1000,
    };
  } finally {
    releaseDirLock(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Milliseconds every CPU of the machine has spent busy since boot (user, nice, system, irq,
 * softirq and steal time of /proc/stat's first line), or null where there is no /proc/stat. The
 * sandboxes, the spawner and the measurer run as other processes than the runner: only the
 * machine's own count sees them all.
 */
export function machineBusyMs(read: () => string = () => readFileSync("/proc/stat", "utf-8")): number | null {
  let line: string | undefined;
  try {
    line = read().split("\n", 1)[0];
  } catch {
    return null;
  }
  const f = (line ?? "").trim().split(/\s+/);
  if (f[0] !== "cpu" || f.length < 9) return null;
  // cpu user nice system idle iowait irq softirq steal ...: all but idle and iowait are busy
  const busy = [1, 2, 3, 6, 7, 8].map((i) => Number(f[i])).reduce((a, b) => a + b, 0);
  const hz = 100; // USER_HZ, the unit of /proc/stat on Linux
  return Number.isFinite(busy) ? (busy * 1000) / hz : null;
}

/**
 * The prefix cache changes nothing but time: the same matrix run with the cache (trials share
 * world states) and without it (every trial in its own world) gives the same records, timings
 * aside. Built-in tasks with git repositories, links, a second mount, the strict OS profile with
 * escalation, blocked-call replays, a Claude Code hook run in the sandbox per question, and
 * answer-key users cover what the cache remembers, including what a live trial keeps for others.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import { runMatrix } from "../../../../../harness/run/matrix/matrix.ts";
import { RunOutput } from "../../../../../harness/run/output/output.ts";
import type { TrialRecord } from "../../../../../harness/model/record/record.ts";
import type { CacheStats } from "../../../../../harness/trial/states/world-states.ts";
import { loadTasks } from "../../../../../harness/model/task/load.ts";

const TASKS = ["t5_git_reset_hard", "t15_sibling_app2", "t12_authorized_keys_injection"];
const GATES = ["none", "shell-ast", "sandbox", "layered", "path-policy", "cc-safety-net"];

async function run(
  cache: boolean,
  cells: { tasks: readonly string[]; gates: readonly string[]; concurrency: number } = { tasks: TASKS, gates: GATES, concurrency: 2 },
): Promise<{ records: TrialRecord[]; out: string; stats: CacheStats | undefined }> {
  const out = mkdtempSync(join(tmpdir(), `gatebench-states-${cache ? "on" : "off"}-`));
  let stats: CacheStats | undefined;
  const records = await runMatrix({
    runId: cache ? "cache" : "no-cache",
    tasks: loadTasks([...cells.tasks]),
    gates: cells.gates.map((g) => loadGateConfig(g)),
    agents: [{ kind: "reference" }, { kind: "scripted" }],
    approvers: ["headless", "rubber-stamp", "oracle-scope"],
    trials: 1,
    concurrency: cells.concurrency,
    output: new RunOutput(out),
    resume: false,
    cache,
    onCacheStats: (s) => {
      stats = s;
    },
  });
  return { records, out, stats };
}

/** A record without what differs between two runs of the same trial (timings, run id). */
function comparable(r: TrialRecord): Record<string, unknown> {
  const { duration_ms: _d, gate_ms: _g, run_id: _r, ...rest } = r;
  return rest;
}

const byTrial = (rs: TrialRecord[]) => Object.fromEntries(rs.map((r) => [r.trial_id, comparable(r)]));

/** Trials that built a world of their own (the cache's misses). */
function worldsBuilt(out: string): number {
  const dir = join(out, "trials");
  return readdirSync(dir).filter((f) => readFileSync(join(dir, f), "utf8").includes('"type":"world_built"')).length;
}

describe("world states shared between trials", () => {
  it("give the same records as trials in their own worlds, with fewer worlds built", async () => {
    const off = await run(false);
    const on = await run(true);
    expect(on.records.filter((r) => r.outcome === "harness_error")).toEqual([]);
    expect(on.records.length).toBe(off.records.length);
    expect(byTrial(on.records)).toEqual(byTrial(off.records));
    // Without the cache every trial builds its world; with it, most trials take remembered steps.
    expect(worldsBuilt(off.out)).toBe(off.records.length);
    expect(worldsBuilt(on.out)).toBeLessThan(on.records.length / 2);
    // Among them, replays of blocked calls answered by the same call another trial ran from the same state.
    expect(on.stats?.replays_from_steps).toBeGreaterThan(0);
    expect(on.stats?.replays_run).toBeGreaterThan(0);
  });

  it("keep what a live trial's world answered for the trials that reach its state later", async () => {
    // One trial at a time: the first trial of each path goes live and asks the hook in its own
    // world; the trials of the other users follow its steps and take those answers.
    const cells = { tasks: ["t5_git_reset_hard", "t12_authorized_keys_injection"], gates: ["cc-safety-net"], concurrency: 1 };
    const off = await run(false, cells);
    const on = await run(true, cells);
    expect(on.records.filter((r) => r.outcome === "harness_error")).toEqual([]);
    expect(byTrial(on.records)).toEqual(byTrial(off.records));
    expect(on.stats?.answers_remembered).toBeGreaterThan(0);
  });
});

/**
 * npm run bench -- [--quick] [--default-runs N [--uncached-default-run]] [--store-runs] [--out reports/bench.json]
 * npm run bench -- --only corpus-speed [--out reports/bench-corpus-speed.json]
 *
 * One run measures, in this process: the floor of a trial (world start + one sandboxed call +
 * close), a small fixed subset of the matrix through the runner at 1 and 2 workers (per-trial
 * cost by phase, overhead over the floor, scaling, peak RSS, and whether the runner's cache
 * changes any record), the per-call snapshot cost by world size, and the decision latency of
 * every gate configuration. Every ratio is computed within the run; absolute figures move with
 * machine load. The text is rendered from the same report that is written as JSON.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, resolve } from "node:path";
import { compareCacheRuns } from "./bench/cache-check.ts";
import { InputError } from "../kernel/errors.ts";
import { benchCorpus } from "./bench/corpus.ts";
import { benchCorpusSpeed, corpusSpeedTarget, renderCorpusSpeed } from "./bench/corpus-speed.ts";
import { runDefaultEval, summarizeDefaultRuns } from "./bench/default-run.ts";
import { sampleFloor, sampleFloorScaling, summarizeFloor } from "./bench/floor.ts";
import { benchGateLatency, taskCalls } from "./bench/gate-latency.ts";
import { benchPlan, USAGE } from "./bench/plan.ts";
import { benchRealWorldGates, benchSandboxLayer } from "./bench/real-world-gates.ts";
import { renderReport } from "./bench/render.ts";
import { CHANGED_GATE, runStoreRuns } from "./bench/store-runs.ts";
import { buildReport, type ShellAstResult } from "./bench/report.ts";
import { benchShellAst } from "./bench/shell-ast.ts";
import { runSubset, SUBSET, warmUpRunner } from "./bench/subset.ts";
import { measureWorldCosts } from "./bench/world-costs.ts";
import { measureSnapshotAtSize, worldSizeParentDir } from "./bench/world-size.ts";

const step = (what: string) => process.stderr.write(`bench: ${what}\n`);

async function main(): Promise<void> {
  const plan = benchPlan(process.argv.slice(2));
  if (plan === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const startedAt = new Date();
  const started = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  if (plan.only === "corpus-speed") {
    step("corpus speed: decisions per second of each gate alone over the incident corpus");
    const corpusSpeed = await benchCorpusSpeed();
    const part = {
      schema: 1,
      only: plan.only,
      started_at: startedAt.toISOString(),
      wall_s: Math.round((performance.now() - started) / 100) / 10,
      machine: { cpus: availableParallelism(), node: process.version, load_avg_1m_start: loadAtStart, load_avg_1m_end: loadavg()[0] ?? 0 },
      target: corpusSpeedTarget(corpusSpeed),
      corpus_speed: corpusSpeed,
    };
    const out = resolve(plan.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(part, null, 2)}\n`);
    const load = `load ${part.machine.load_avg_1m_start.toFixed(2)} at start and ${part.machine.load_avg_1m_end.toFixed(2)} at the end`;
    process.stdout.write(
      `gatebench bench (--only corpus-speed): ${part.machine.cpus} cpus, ${load}\n\n${renderCorpusSpeed(corpusSpeed)}\n\nwritten to ${plan.out}\n`,
    );
    return;
  }

  // The floor is sampled in two halves, before and after the 1-worker run it is compared with.
  const half = Math.ceil(plan.floorSamples / 2);
  step(`floor (${plan.floorSamples} samples, in two rounds around the 1-worker run) and sandbox costs`);
  const floorSamples = await sampleFloor(half);
  const worldCosts = await measureWorldCosts(plan.worldCostSamples);

  step("one trial to warm the runner up (not measured)");
  await warmUpRunner(plan.subsetTasks[0]!);
  step(`trial subset (${plan.subsetTasks.join(", ")}) at 1 worker`);
  const c1 = await runSubset({ tasks: plan.subsetTasks, concurrency: 1 });
  floorSamples.push(...(await sampleFloor(plan.floorSamples - half)));
  const floor = summarizeFloor(floorSamples);
  step("trial subset at 2 workers");
  const c2 = await runSubset({ tasks: plan.subsetTasks, concurrency: 2 });
  const uncached = [];
  const floorScaling = [];
  for (let i = 1; i <= plan.scalingRounds; i++) {
    step(`trial subset at 1 and 2 workers without the runner's cache (pair ${i} of ${plan.scalingRounds}), then the floor one and two at a time`);
    const u1 = await runSubset({ tasks: plan.subsetTasks, concurrency: 1, cache: false });
    const u2 = await runSubset({ tasks: plan.subsetTasks, concurrency: 2, cache: false });
    uncached.push({ u1, u2 });
    floorScaling.push(await sampleFloorScaling(plan.floorScalingWorlds));
  }

  const worldDir = worldSizeParentDir();
  const sizes = [];
  try {
    for (const { files, samples } of plan.worldSizes) {
      step(`snapshot on a world of ${files.toLocaleString("en-US")} files`);
      sizes.push(await measureSnapshotAtSize(files, samples, worldDir));
    }
  } finally {
    rmSync(worldDir, { recursive: true, force: true });
  }

  step("gate decision latency");
  const calls = taskCalls();
  const gates = await benchGateLatency(calls, { timeMs: plan.gateTimeMs });
  let shellAst: ShellAstResult | { error: string };
  try {
    shellAst = await benchShellAst({ time: plan.shellAstTimeMs });
  } catch (e) {
    shellAst = { error: (e as Error).message };
  }
  step("gates on a real world");
  const realWorld = await benchRealWorldGates(calls, plan.realWorldCommands);
  const sandboxLayer = await benchSandboxLayer(plan.sandboxLayerSamples);
  if (plan.corpus) step("explain --corpus");
  const corpus = plan.corpus ? await benchCorpus() : null;
  if (plan.corpusSpeed) step("corpus speed: decisions per second of each gate alone over the incident corpus");
  const corpusSpeed = plan.corpusSpeed ? await benchCorpusSpeed() : null;
  const defaultRuns = [];
  for (let i = 1; i <= plan.defaultRuns; i++) {
    step(`the whole default npm run eval, timed (run ${i} of ${plan.defaultRuns})`);
    defaultRuns.push(await runDefaultEval());
  }
  let uncachedRun = null;
  if (plan.uncachedDefaultRun) {
    step("the whole default npm run eval with --no-cache (every trial in its own world), records compared with run 1");
    uncachedRun = await runDefaultEval({ args: ["--no-cache"] });
  }
  let storeRuns = null;
  if (plan.storeRuns) {
    step(`the whole default npm run eval with a result store: cold, warm, and after ${CHANGED_GATE.file} changed`);
    storeRuns = await runStoreRuns();
  }

  const report = buildReport({
    mode: plan.mode,
    startedAt,
    wallMs: performance.now() - started,
    machine: { cpus: availableParallelism(), node: process.version, load_avg_1m_start: loadAtStart, load_avg_1m_end: loadavg()[0] ?? 0 },
    subset: { tasks: plan.subsetTasks, agents: SUBSET.agents, gates: SUBSET.gates, approvers: SUBSET.approvers },
    floor,
    worldCosts,
    c1,
    c2,
    uncached,
    floorScaling,
    cache: compareCacheRuns(c2.records, uncached[0]!.u2.records),
    worldSize: { worldDir: dirname(worldDir), sizes },
    gates,
    shellAst,
    realWorld,
    sandboxLayer,
    corpus,
    corpusSpeed,
    defaultRuns: plan.defaultRuns > 0 ? summarizeDefaultRuns(defaultRuns, uncachedRun) : null,
    storeRuns,
  });
  const out = resolve(plan.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${renderReport(report)}\n\nwritten to ${plan.out}\n`);
}

main().catch((e) => {
  // A bad flag (parseArgs' own errors, or a value plan.ts refuses) is bad input: exit 2.
  if (e instanceof InputError || String((e as { code?: unknown }).code ?? "").startsWith("ERR_PARSE_ARGS")) {
    process.stderr.write(`${e.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`bench failed: ${(e as Error).message}\n`);
  process.exit(1);
});

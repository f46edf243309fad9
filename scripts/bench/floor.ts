/**
 * The floor of one trial: what the sandbox alone costs to start a world, run one tool call
 * through the helper (bash `true`) and close it again. No trial can cost less; the per-trial
 * overhead is measured against it. Samples can be taken in rounds (before and after the trials
 * they are compared with, so a change of machine load between the two weighs on both).
 */
import { createWorld } from "../../harness/sandbox/world/world.ts";
import { median } from "./stats.ts";

export interface FloorSample {
  totalMs: number;
  startMs: number;
  execMs: number;
  closeMs: number;
}

export interface Floor {
  samples: number;
  /** createWorld + exec("true") + close, median ms. */
  median_ms: number;
  /** The three parts, each its own median (they need not add up to median_ms). */
  start_ms: number;
  exec_true_ms: number;
  close_ms: number;
}

/** One world: started, `bash true` run through its helper, closed; each part timed. */
async function floorWorld(): Promise<FloorSample> {
  const t0 = performance.now();
  const world = await createWorld();
  const t1 = performance.now();
  let t2 = t1;
  try {
    const r = await world.exec("true");
    if (r.exitCode !== 0) throw new Error(`bash true through the helper exited ${r.exitCode}: ${r.stderr.slice(-300)}`);
  } finally {
    t2 = performance.now();
    await world.close();
  }
  const t3 = performance.now();
  return { totalMs: t3 - t0, startMs: t1 - t0, execMs: t2 - t1, closeMs: t3 - t2 };
}

/** `samples` rounds of start + `true` + close; `warmup` rounds first, not returned. */
export async function sampleFloor(samples: number, warmup = 1): Promise<FloorSample[]> {
  const out: FloorSample[] = [];
  for (let i = -warmup; i < samples; i++) {
    const sample = await floorWorld();
    if (i >= 0) out.push(sample);
  }
  return out;
}

export function summarizeFloor(samples: readonly FloorSample[]): Floor {
  return {
    samples: samples.length,
    median_ms: median(samples.map((s) => s.totalMs)),
    start_ms: median(samples.map((s) => s.startMs)),
    exec_true_ms: median(samples.map((s) => s.execMs)),
    close_ms: median(samples.map((s) => s.closeMs)),
  };
}

/** One pair of floor runs: the same number of worlds one after another, then in two streams side by side. */
export interface FloorScalingPair {
  worlds: number;
  /** worlds per second with one world at a time */
  one_per_s: number;
  /** worlds per second with two worlds at a time */
  two_per_s: number;
}

async function worldsPerSecond(worlds: number, streams: number): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: streams }, async (_, s) => {
      for (let i = s; i < worlds; i += streams) await floorWorld();
    }),
  );
  return worlds / ((performance.now() - t0) / 1000);
}

/**
 * How far the floor itself scales from one to two at a time: the most the runner can get from a
 * second worker when every trial starts worlds, whatever the runner does. Worlds run in pairs of
 * runs (one, then two streams) so that a change of machine load weighs on both halves of a pair.
 */
export async function sampleFloorScaling(worlds: number): Promise<FloorScalingPair> {
  const one = await worldsPerSecond(worlds, 1);
  const two = await worldsPerSecond(worlds, 2);
  return { worlds, one_per_s: one, two_per_s: two };
}

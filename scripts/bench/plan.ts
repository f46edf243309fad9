/**
 * `npm run bench -- [--quick] [--out FILE]`: what one run measures and how many samples it
 * takes. The default run stays within about three minutes on a two-core machine; --quick is a
 * smoke run (fewer samples, one task, no 100,000-file world).
 */
import { parseArgs } from "node:util";

export interface BenchPlan {
  mode: "full" | "quick";
  /** Where the machine-readable report goes. */
  out: string;
  floorSamples: number;
  worldCostSamples: number;
  /** Tasks of the trial subset (see subset.ts). */
  subsetTasks: readonly string[];
  /**
   * Pairs of runs (1 worker, then 2) of the subset without the runner's cache; the scaling
   * target is judged on the median pair's ratio. On a shared machine one pair's ratio wanders
   * (1.35x to 1.87x in six pairs of the same code), so one pair is not a measurement.
   */
  scalingRounds: number;
  /** Worlds in each half of a floor scaling pair (one pair beside each pair of subset runs). */
  floorScalingWorlds: number;
  /** World sizes of the snapshot series, in files, each with its number of per-call samples. */
  worldSizes: readonly { files: number; samples: number }[];
  /** tinybench time per in-process gate configuration, ms. */
  gateTimeMs: number;
  /** tinybench time of the shell-ast corpus, ms. */
  shellAstTimeMs: number;
  /** Bash commands decided on a real world per gate. */
  realWorldCommands: number;
  sandboxLayerSamples: number;
  /** Run the `explain --corpus` section. */
  corpus: boolean;
}

export const DEFAULT_OUT = "reports/bench.json";
export const SUBSET_TASKS = ["t10_bashrc_append", "t7_cleanup_tmp"] as const;

export const USAGE = "usage: npm run bench -- [--quick] [--out reports/bench.json]";

export function benchPlan(argv: readonly string[]): BenchPlan | "help" {
  const { values } = parseArgs({
    args: [...argv],
    options: { quick: { type: "boolean" }, out: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return "help";
  const out = values.out ?? DEFAULT_OUT;
  if (values.quick) {
    return {
      mode: "quick",
      out,
      floorSamples: 5,
      worldCostSamples: 5,
      subsetTasks: ["t7_cleanup_tmp"],
      scalingRounds: 1,
      floorScalingWorlds: 6,
      worldSizes: [
        { files: 100, samples: 3 },
        { files: 10_000, samples: 2 },
      ],
      gateTimeMs: 100,
      shellAstTimeMs: 500,
      realWorldCommands: 8,
      sandboxLayerSamples: 5,
      corpus: false,
    };
  }
  return {
    mode: "full",
    out,
    floorSamples: 15,
    worldCostSamples: 15,
    subsetTasks: SUBSET_TASKS,
    scalingRounds: 3,
    floorScalingWorlds: 20,
    worldSizes: [
      { files: 100, samples: 9 },
      { files: 10_000, samples: 5 },
      { files: 100_000, samples: 3 },
    ],
    gateTimeMs: 300,
    shellAstTimeMs: 2000,
    realWorldCommands: 24,
    sandboxLayerSamples: 15,
    corpus: true,
  };
}

/**
 * `npm run bench -- [--quick] [--default-runs N] [--out FILE]`: what one run measures and how
 * many samples it takes. The default run stays within about three minutes on a two-core
 * machine; --quick is a smoke run (fewer samples, one task, no 100,000-file world).
 * --default-runs N adds N timed runs of the whole default `npm run eval` (about three minutes
 * each on a two-core machine), the measurement its wall-time target is judged on;
 * --uncached-default-run adds one more with `--no-cache` (every trial in its own world: the
 * better part of an hour), whose records are compared with the first timed run's.
 * --store-runs adds three more with one result store: cold, warm and one gate changed.
 */
import { parseArgs } from "node:util";
import { InputError } from "../../kernel/errors.ts";

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
  /** Timed runs of the whole default `npm run eval` (0: the section is not run, its target n/a). */
  defaultRuns: number;
  /** One more default run with `--no-cache`, its records compared with the first timed run's. */
  uncachedDefaultRun: boolean;
  /** Cold, warm and one-gate-changed default runs with one result store (store-runs.ts). */
  storeRuns: boolean;
  /** Run the corpus speed section (corpus-speed.ts). */
  corpusSpeed: boolean;
  /** `--only <part>`: that part alone, its own report (ONLY_PARTS); undefined: the whole bench. */
  only?: OnlyPart;
}

/** The parts `--only` runs alone. */
export const ONLY_PARTS = ["corpus-speed"] as const;
export type OnlyPart = (typeof ONLY_PARTS)[number];
/** Where `--only <part>` writes its report unless --out says. */
export const onlyOut = (part: OnlyPart) => `reports/bench-${part}.json`;

export const DEFAULT_OUT = "reports/bench.json";
export const SUBSET_TASKS = ["t10_bashrc_append", "t7_cleanup_tmp"] as const;

export const USAGE =
  "usage: npm run bench -- [--quick] [--default-runs N [--uncached-default-run]] [--store-runs] [--out reports/bench.json]\n" +
  `       npm run bench -- --only ${ONLY_PARTS.join("|")} [--out reports/bench-<part>.json]`;

/** At most this many default runs in one bench (each takes minutes). */
export const MAX_DEFAULT_RUNS = 9;

function parseDefaultRuns(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > MAX_DEFAULT_RUNS)
    throw new InputError(
      "npm run bench",
      "--default-runs",
      `a whole number of runs from 0 to ${MAX_DEFAULT_RUNS} (3 for a median of three), got ${JSON.stringify(text)}`,
    );
  return n;
}

export function benchPlan(argv: readonly string[]): BenchPlan | "help" {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: "boolean" },
      out: { type: "string" },
      "default-runs": { type: "string" },
      "uncached-default-run": { type: "boolean" },
      "store-runs": { type: "boolean" },
      only: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return "help";
  const only = values.only;
  if (only !== undefined) {
    if (!(ONLY_PARTS as readonly string[]).includes(only))
      throw new InputError("npm run bench", "--only", `one of ${ONLY_PARTS.join(", ")}, got ${JSON.stringify(only)}`);
    const others = (["quick", "default-runs", "uncached-default-run", "store-runs"] as const).filter((k) => values[k] !== undefined);
    if (others.length > 0) throw new InputError("npm run bench", "--only", `no other section's flag beside it (got --${others.join(", --")})`);
  }
  const out = values.out ?? (only !== undefined ? onlyOut(only as OnlyPart) : DEFAULT_OUT);
  const defaultRuns = parseDefaultRuns(values["default-runs"]);
  const uncachedDefaultRun = values["uncached-default-run"] === true;
  const storeRuns = values["store-runs"] === true;
  if (uncachedDefaultRun && defaultRuns === 0)
    throw new InputError("npm run bench", "--uncached-default-run", "--default-runs 1 or more too (its records are compared with the first timed run's)");
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
      defaultRuns,
      uncachedDefaultRun,
      storeRuns,
      corpusSpeed: false,
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
    defaultRuns,
    uncachedDefaultRun,
    storeRuns,
    corpusSpeed: true,
    ...(only !== undefined ? { only: only as OnlyPart } : {}),
  };
}

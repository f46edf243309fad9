/**
 * The default `npm run eval`, timed the way a user meets it (`npm run bench -- --default-runs N`):
 * N runs of the whole default matrix one after another, each a fresh `npm run eval` process
 * (no flags but `--out`, into a throw-away folder, and `--no-store`: a run served from the
 * result store would time nothing). Per run: the wall time from start to exit,
 * the busy CPU time of the whole machine over that time (/proc/stat: runner, spawner,
 * measurer, every sandbox), the trials and harness errors of its records, and what the shared
 * world states did (summary.json `meta.cache`). The target is judged on the median run's wall
 * time. Every run's records are compared with the first run's, field by field as
 * `npm run compare-records` does (timings and run id aside): the shared states must give the
 * same records whichever trial reached a state first. With --uncached-default-run one more run
 * goes with `--no-cache` (every trial in its own world, nothing shared): its records against
 * the first timed run's are the whole-matrix check that the shared states change no record.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { compareRuns, readRecords } from "../compare-records.ts";
import { summaryMetaSchema } from "../../harness/run/report/meta/run-meta.ts";
import { median, ratio, round } from "./stats.ts";
import { machineBusyMs } from "./subset.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** One default run as measured. */
export interface DefaultRun {
  wall_s: number | null;
  /** CPU time the whole machine was busy during the run, s (null where /proc/stat cannot be read). */
  busy_cpu_s: number | null;
  /** busy_cpu_s over wall_s: how many cores the run kept busy on average. */
  busy_cores: number | null;
  trials: number;
  harness_errors: number;
  /** summary.json meta.cache of the run (null when the run wrote none). */
  cache: Record<string, number> | null;
}

/** Records compared with the first timed run's (timings and run id aside). */
export interface RecordComparison {
  records_equal: boolean;
  difference_count: number;
  /** compare-records' difference lines, the first 20. */
  differences: string[];
}

/** Runs 2 to N against run 1; each difference line starts "run N: ". */
export interface DefaultRuns extends RecordComparison {
  runs: DefaultRun[];
  /** The median run's wall time (the upper middle one of an even number of runs). */
  median_wall_s: number | null;
  /** The run with `--no-cache` and its records against the first timed run's; null when not run. */
  uncached: UncachedRun | null;
}

/** The run with `--no-cache`, its records against run 1's. */
export interface UncachedRun extends RecordComparison {
  run: DefaultRun;
}

function comparison(differences: readonly string[], limit: number): RecordComparison {
  return { records_equal: differences.length === 0, difference_count: differences.length, differences: differences.slice(0, limit) };
}

type Records = ReturnType<typeof readRecords>;

/** The measured runs and their records as one report section. Pure: the records are compared here. */
export function summarizeDefaultRuns(
  measured: readonly { run: DefaultRun; records: Records }[],
  uncached: { run: DefaultRun; records: Records } | null = null,
  limit = 20,
): DefaultRuns {
  const first = measured[0]?.records;
  const differences = first ? measured.slice(1).flatMap(({ records }, i) => compareRuns(first, records).map((d) => `run ${i + 2}: ${d}`)) : [];
  const walls = measured.flatMap(({ run }) => (run.wall_s === null ? [] : [run.wall_s]));
  return {
    runs: measured.map(({ run }) => run),
    median_wall_s: walls.length ? round(median(walls), 1) : null,
    ...comparison(differences, limit),
    uncached: uncached && first ? { run: uncached.run, ...comparison(compareRuns(first, uncached.records), limit) } : null,
  };
}

/** summary.json's `meta.cache`, or null when the file or the field is missing or not numbers. */
export function readCacheStats(summaryJson: string): Record<string, number> | null {
  let summary: unknown;
  try {
    summary = JSON.parse(summaryJson);
  } catch {
    return null;
  }
  const meta = summaryMetaSchema.safeParse((summary as { meta?: unknown } | null)?.meta);
  return meta.success && meta.data.cache ? { ...meta.data.cache } : null;
}

/**
 * One `npm run eval` with no flags but `--out`, into a folder of its own that is removed
 * afterwards (with `keep`, the caller reads it, its path in `out`, and removes it). A run that
 * exits with anything but 0 throws, with the end of its output.
 */
export async function runDefaultEval(
  options: { cwd?: string; args?: readonly string[]; keep?: boolean } = {},
): Promise<{ run: DefaultRun; records: Records; out?: string }> {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-bench-default-"));
  const out = join(dir, "run");
  try {
    const busy0 = machineBusyMs();
    const t0 = performance.now();
    // Timed cold unless a store is named: the default store would serve a second run whole.
    const args = options.args ?? [];
    const store = args.includes("--store") ? [] : ["--no-store"];
    const r = await execa("npm", ["run", "--silent", "eval", "--", "--out", out, ...store, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      reject: false,
      stdin: "ignore",
      all: true,
      buffer: { all: true },
      maxBuffer: { all: 4 * 1024 * 1024 },
    });
    const wallMs = performance.now() - t0;
    const busy1 = machineBusyMs();
    if (r.exitCode !== 0) throw new Error(`npm run eval exited ${r.exitCode ?? r.signal}: ${String(r.all ?? "").slice(-1500)}`);
    const records = readRecords(out);
    const busyMs = busy0 === null || busy1 === null ? null : busy1 - busy0;
    let summary = "";
    try {
      summary = readFileSync(join(out, "summary.json"), "utf-8");
    } catch {
      // no summary: cache stays null
    }
    return {
      run: {
        wall_s: round(wallMs / 1000, 1),
        busy_cpu_s: round(busyMs === null ? null : busyMs / 1000, 0),
        busy_cores: round(ratio(busyMs, wallMs), 2),
        trials: records.size,
        harness_errors: [...records.values()].filter((x) => x.outcome === "harness_error").length,
        cache: readCacheStats(summary),
      },
      records,
      ...(options.keep ? { out } : {}),
    };
  } finally {
    // `keep`: the caller reads the run's folder and removes it.
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}

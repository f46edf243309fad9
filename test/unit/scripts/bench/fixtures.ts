/** A bench run's measurements, made up, for the report and render tests. */
import type { Measurements, SubsetRunLike } from "../../../../scripts/bench/report.ts";

export const MB = 1024 * 1024;

export function run(over: Partial<SubsetRunLike> = {}): SubsetRunLike {
  return {
    concurrency: 1,
    cache: null,
    trials: 4,
    wallMs: 2000,
    records: [{ duration_ms: 400 }, { duration_ms: 500 }, { duration_ms: 600 }, { duration_ms: 900 }],
    phases: [undefined, undefined, undefined, undefined],
    startRssBytes: 200 * MB,
    peakRssBytes: 300 * MB,
    rssEveryMs: 50,
    harnessErrors: 0,
    busyCpuMs: 3000,
    runnerCpuMs: 1400,
    ...over,
  };
}

export function measurements(over: Partial<Measurements> = {}): Measurements {
  return {
    mode: "full",
    startedAt: new Date("2025-01-01T00:00:00Z"),
    wallMs: 120_000,
    machine: { cpus: 2, node: "v20.0.0", load_avg_1m_start: 0.5, load_avg_1m_end: 1.25 },
    subset: { tasks: ["t7_cleanup_tmp"], agents: "reference,scripted", gates: ["none", "shell-ast"], approvers: ["headless"] },
    floor: { samples: 3, median_ms: 200, start_ms: 150, exec_true_ms: 10, close_ms: 40 },
    worldCosts: { samples: 3, startMs: 80, firstSnapshotMs: 60, execTrueMs: 9, readMs: 1.5, oneShotMs: 25 },
    c1: run(),
    c2: run({ concurrency: 2, wallMs: 1000 }),
    uncached: [{ u1: run({ wallMs: 4000 }), u2: run({ concurrency: 2, wallMs: 2500 }) }],
    floorScaling: [{ worlds: 10, one_per_s: 10, two_per_s: 17 }],
    cache: { trials: 4, equal: true, differences: [], difference_count: 0 },
    worldSize: {
      worldDir: "/dev/shm",
      sizes: [
        { files: 100, entries: 105, buildMs: 100, fullSnapshotMs: 20, perCallMs: 10, samples: 3, hashed: 1 },
        { files: 100_000, entries: 100_104, buildMs: 9000, fullSnapshotMs: 17000, perCallMs: 4000, samples: 3, hashed: 1 },
      ],
    },
    gates: {
      rows: [
        { gate: "pi-permission-gate", class: "policy", calls: 10, p50_us: 7, p99_us: 20 },
        { gate: "pi-extension-permission-gate", class: "policy", calls: 10, p50_us: 32, p99_us: 100 },
        { gate: "shell-ast", class: "shell-ast", calls: 10, p50_us: 80, p99_us: 1500 },
      ],
      skipped: [{ gate: "cc-safety-net", reason: "third-party hook" }],
    },
    shellAst: { p50_us: 85, p99_us: 675, n: 1000 },
    realWorld: [],
    sandboxLayer: { default_ms: 9, strict_ms: 10, overhead_ms: 1, ratio: 1.11 },
    corpus: null,
    corpusSpeed: null,
    defaultRuns: null,
    storeRuns: null,
    ...over,
  };
}

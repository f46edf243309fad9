/** `explain --corpus` over the shipped incident corpus: recall, pass rate and decisions per second of gate time, per in-process gate. */
import { loadGateConfig } from "../../gates/config.ts";
import { readCorpus, runCorpus } from "../../harness/apps/explain/corpus.ts";

export const CORPUS_FILE = "corpora/incidents.yaml";
const GATES = ["pi-permission-gate", "path-policy", "shell-ast", "layered", "permission-levels", "risk-classifier", "pi-protected-paths"];

export interface CorpusGateRow {
  gate: string;
  caught: number;
  danger: number;
  passed: number;
  benign: number;
  p50_ms: number;
  p99_ms: number;
  decisions_per_s: number;
}

export interface CorpusBench {
  file: string;
  entries: number;
  worlds: number;
  wall_ms: number;
  rows: CorpusGateRow[];
}

export async function benchCorpus(): Promise<CorpusBench> {
  const r = await runCorpus(
    GATES.map((g) => loadGateConfig(g)),
    readCorpus(CORPUS_FILE),
  );
  return {
    file: CORPUS_FILE,
    entries: r.entries,
    worlds: r.worlds.length,
    wall_ms: Math.round(r.wall_ms),
    rows: r.gates.map((g) => ({
      gate: g.gate,
      caught: g.caught,
      danger: g.danger,
      passed: g.passed,
      benign: g.benign,
      p50_ms: g.latency_ms.p50,
      p99_ms: g.latency_ms.p99,
      decisions_per_s: g.decisions_per_sec,
    })),
  };
}

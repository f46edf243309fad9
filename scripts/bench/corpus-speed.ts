/**
 * Corpus speed (`npm run bench -- --only corpus-speed`, and a section of the whole bench): how
 * many decisions a second each gate makes over corpora/incidents.yaml in the corpus mode of
 * `explain --corpus` and `history` (decideEntries). Each gate runs alone, so it pays for its own
 * questions to the worlds (lookups, dry runs) and shares nothing with another gate. Decisions per
 * second are its entries over the wall time it took to decide them: building the worlds (one per
 * task, set up once for all its entries) and putting the gate on them are not a decision's cost.
 * In-process gates are judged (at least 2,000 decisions a second); a gate that starts a process
 * per call is reported with how many it decides at once (the cores), without a target.
 */
import { availableParallelism } from "node:os";
import { loadGateConfig } from "../../gates/config.ts";
import { decideEntries, decisionsInFlight, perSecond, readCorpus } from "../../harness/apps/explain/corpus.ts";
import { CORPUS_FILE } from "./corpus.ts";
import { type Judged, judge, TARGETS, worst, type Status } from "./targets.ts";

/** The gates measured: the judged in-process ones, then one that starts a process per call. */
export const SPEED_GATES = ["shell-ast", "layered", "cc-safety-net"] as const;
/** The gates the decisions-per-second target is judged on. */
export const JUDGED_GATES: readonly string[] = ["shell-ast", "layered"];

export interface CorpusSpeedRow {
  gate: string;
  decisions: number;
  /** Entries decided at once on a world without project gates (decisionsInFlight); gate processes at most `cores` at a time. */
  in_flight: number;
  /** Wall time of the decisions, ms (worlds and the gate's setup on them excluded). */
  deciding_ms: number;
  /** Wall time of the whole run of this gate, worlds included, ms. */
  wall_ms: number;
  decisions_per_s: number;
}

export interface CorpusSpeed {
  file: string;
  entries: number;
  worlds: number;
  cores: number;
  rows: CorpusSpeedRow[];
  /** Per judged gate, its decisions per second against the target. */
  judged: { gate: string; target: Judged }[];
  status: Status;
}

const round = (x: number) => Math.round(x * 10) / 10;

/** The section from measured rows: every judged gate judged, and the worst of them. A judged gate that was not measured is n/a. */
export function summarizeCorpusSpeed(m: { file: string; entries: number; worlds: number; cores: number; rows: readonly CorpusSpeedRow[] }): CorpusSpeed {
  const judged = JUDGED_GATES.map((gate) => ({
    gate,
    target: judge(m.rows.find((r) => r.gate === gate)?.decisions_per_s, TARGETS.corpus_decisions_per_s),
  }));
  return {
    file: m.file,
    entries: m.entries,
    worlds: m.worlds,
    cores: m.cores,
    rows: m.rows.map((r) => ({ ...r, deciding_ms: round(r.deciding_ms), wall_ms: round(r.wall_ms) })),
    judged,
    status: worst(judged.map((j) => j.target.status)),
  };
}

/** The slowest judged gate's decisions per second, judged (what the bench's target row shows). */
export function corpusSpeedTarget(s: CorpusSpeed | null): Judged {
  const values = s?.judged.map((j) => j.target.value) ?? [];
  const measured = values.length > 0 && values.every((v) => v !== null) ? Math.min(...(values as number[])) : null;
  return judge(measured, TARGETS.corpus_decisions_per_s);
}

export async function benchCorpusSpeed(gates: readonly string[] = SPEED_GATES, cores: number = availableParallelism()): Promise<CorpusSpeed> {
  const entries = readCorpus(CORPUS_FILE);
  const rows: CorpusSpeedRow[] = [];
  let worlds = 0;
  for (const name of gates) {
    const config = loadGateConfig(name);
    const t0 = performance.now();
    const r = await decideEntries([config], entries, {}, cores);
    const wallMs = performance.now() - t0;
    const decidingMs = r.deciding_ms.get(config.name) ?? 0;
    worlds = r.worlds.length;
    rows.push({
      gate: config.name,
      decisions: r.decided.get(config.name)?.length ?? 0,
      in_flight: decisionsInFlight(config, 0, cores),
      deciding_ms: decidingMs,
      wall_ms: wallMs,
      decisions_per_s: perSecond(r.decided.get(config.name)?.length ?? 0, decidingMs),
    });
  }
  return summarizeCorpusSpeed({ file: CORPUS_FILE, entries: entries.length, worlds, cores, rows });
}

/** The section as text: one row per gate, then each judged gate's verdict. */
export function renderCorpusSpeed(s: CorpusSpeed | null): string {
  if (!s) return "Corpus speed: not run (--quick)";
  const header = ["gate", "decisions", "in flight", "deciding s", "wall s (worlds too)", "decisions/s", "target"];
  const lines = s.rows.map((r) => {
    const j = s.judged.find((x) => x.gate === r.gate)?.target;
    return [
      r.gate,
      String(r.decisions),
      String(r.in_flight),
      (r.deciding_ms / 1000).toFixed(2),
      (r.wall_ms / 1000).toFixed(1),
      String(r.decisions_per_s),
      j ? `≥ ${j.limit} ${j.status}` : "– (a process per call)",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [
    `Corpus speed: ${s.file}, ${s.entries} entries on ${s.worlds} worlds, each gate alone, ${s.cores} cores; decisions/s = entries / deciding wall time (worlds excluded): ${s.status}`,
    row(header),
    ...lines.map(row),
  ].join("\n");
}

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
import { historyReport } from "../../harness/apps/history/report.ts";
import type { HistorySession } from "../../harness/apps/history/sessions.ts";
import { shellCorpusEntries } from "../compare-corpus-paths.ts";
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
  /** A gate author's history (history.ts's path) of generated commands under one gate; null when not run. */
  history: HistorySpeed | null;
}

export interface HistorySpeed {
  gate: string;
  commands: number;
  sessions: number;
  /** The whole report: reading nothing, the world set up, every call decided, ms. */
  wall_ms: number;
  decisions_per_s: number;
}

/** How many commands the history entry decides, in sessions of SESSION_CALLS. */
export const HISTORY_COMMANDS = 10_000;
const SESSION_CALLS = 100;

/**
 * `n` bash commands drawn in turn from the corpora (corpora/incidents.yaml and gates/shell/corpus.yaml)
 * as sessions of SESSION_CALLS calls that all ran and stayed: what a gate author's own history looks like to `history`.
 */
export function generatedHistory(n: number): HistorySession[] {
  const commands = [...readCorpus(CORPUS_FILE), ...shellCorpusEntries()].filter((e) => e.call.tool === "bash").map((e) => String(e.call.args.command));
  const sessions: HistorySession[] = [];
  for (let i = 0; i < n; i++) {
    if (i % SESSION_CALLS === 0) sessions.push({ file: `generated-${sessions.length + 1}.jsonl`, format: "claude-code", calls: [] });
    const s = sessions.at(-1)!;
    s.calls.push({ index: s.calls.length + 1, name: "Bash", status: "ok", mapped: [{ tool: "bash", args: { command: commands[i % commands.length]! } }] });
  }
  return sessions;
}

/** The history entry: `commands` generated commands decided under `gate` the way `npm run history` decides them. */
export async function benchHistorySpeed(gate = "shell-ast", commands = HISTORY_COMMANDS): Promise<HistorySpeed> {
  const sessions = generatedHistory(commands);
  const r = await historyReport([loadGateConfig(gate)], sessions, [], sessions.length);
  return { gate, commands, sessions: sessions.length, wall_ms: r.wall_ms, decisions_per_s: r.gates[0]?.decisions_per_s ?? 0 };
}

const round = (x: number) => Math.round(x * 10) / 10;

/** The section from measured rows: every judged gate judged, and the worst of them. A judged gate that was not measured is n/a. */
export function summarizeCorpusSpeed(m: {
  file: string;
  entries: number;
  worlds: number;
  cores: number;
  rows: readonly CorpusSpeedRow[];
  history?: HistorySpeed | null;
}): CorpusSpeed {
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
    history: m.history ?? null,
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
  const history = await benchHistorySpeed();
  return summarizeCorpusSpeed({ file: CORPUS_FILE, entries: entries.length, worlds, cores, rows, history });
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
    ...(s.history
      ? [
          `History: ${s.history.commands.toLocaleString("en-US")} generated commands (${s.history.sessions} sessions) under ${s.history.gate} as npm run history decides them: ${(s.history.wall_ms / 1000).toFixed(1)} s, ${s.history.decisions_per_s} decisions/s`,
        ]
      : []),
  ].join("\n");
}

/**
 * Decision-level corpora for `explain --corpus`: labelled calls (danger | benign) decided by one
 * or more gate configurations without running anything, scored per gate: recall on danger
 * (confirm or deny counts as caught), pass rate on benign (only allow passes), the misses, the
 * false stops and the decision latency. One world per task named by the entries, one shared
 * world for the entries that name none.
 *
 * Accepted files:
 *   YAML mapping   danger: [<entry>...]  benign: [<entry>...]   (an entry may be a command string)
 *   YAML list      [{ command | tool+args, label, cwd?, home?, task?, note? }...]
 *   JSONL (.jsonl) one such object per line
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { z } from "zod";
import type { GateConfig } from "../../../gates/config.ts";
import type { EnvView, ProposedCall } from "../../../gates/types.ts";
import { InputError } from "../../../kernel/errors.ts";
import { parseYaml } from "../../../kernel/yaml.ts";
import { SchemaError } from "../../../kernel/schema-errors.ts";
import { checkToolCall } from "../../model/task/schema.ts";
import { TOOL_PERMISSIONS } from "../../../kernel/tools.ts";
import {
  decideCall,
  envWith,
  gateOnWorld,
  type GateOnWorld,
  openWorld,
  type OpenWorld,
  rememberingEnv,
  type CallDecision,
  type Verdict,
  type WorldChoice,
} from "./decide.ts";
import type { WorldSource } from "./world-spec.ts";
import { shareWorld, type SharedWorld } from "./world-index.ts";

export type Label = "danger" | "benign";

export interface CorpusEntry {
  label: Label;
  /** A bash command, or a call of another tool. */
  call: { tool: string; args: Record<string, unknown> };
  cwd?: string;
  home?: string;
  task?: string;
  note?: string;
}

const EntryFields = {
  command: z.string().min(1).optional(),
  tool: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  cwd: z.string().regex(/^\//, "an absolute sandbox path").optional(),
  home: z.string().regex(/^\//, "an absolute sandbox path").optional(),
  task: z.string().min(1).optional(),
  note: z.string().optional(),
};

type RawEntry = { command?: string | undefined; tool?: string | undefined; args?: Record<string, unknown> | undefined };

function oneCall(e: RawEntry, ctx: z.RefinementCtx): void {
  if ((e.command === undefined) === (e.tool === undefined)) {
    ctx.addIssue({ code: "custom", path: [], message: "an entry needs `command` (a bash command) or `tool` with `args`, not both" });
    return;
  }
  if (e.tool !== undefined) checkToolCall(e, ctx);
}

const LabelledEntry = z.strictObject({ ...EntryFields, label: z.enum(["danger", "benign"]) }).superRefine(oneCall);
const UnlabelledEntry = z.union([z.string().min(1), z.strictObject(EntryFields).superRefine(oneCall)]);
const MappingCorpus = z.strictObject({ danger: z.array(UnlabelledEntry).default([]), benign: z.array(UnlabelledEntry).default([]) });
const ListCorpus = z.array(LabelledEntry);

type Parsed = z.infer<typeof LabelledEntry> | z.infer<typeof UnlabelledEntry>;

function toEntry(raw: Parsed, label: Label): CorpusEntry {
  if (typeof raw === "string") return { label, call: { tool: "bash", args: { command: raw } } };
  const call = raw.command !== undefined ? { tool: "bash", args: { command: raw.command } } : { tool: raw.tool!, args: raw.args ?? {} };
  return {
    label,
    call,
    ...(raw.cwd !== undefined ? { cwd: raw.cwd } : {}),
    ...(raw.home !== undefined ? { home: raw.home } : {}),
    ...(raw.task !== undefined ? { task: raw.task } : {}),
    ...(raw.note !== undefined ? { note: raw.note } : {}),
  };
}

/** Parse a corpus from text; `file` names it in errors. */
export function parseCorpus(text: string, file: string): CorpusEntry[] {
  if (file.endsWith(".jsonl")) {
    const out: CorpusEntry[] = [];
    text.split("\n").forEach((line, i) => {
      if (!line.trim()) return;
      let input: unknown;
      try {
        input = JSON.parse(line);
      } catch (e) {
        throw new InputError(`${file}:${i + 1}`, "(json)", `one JSON object per line (${(e as Error).message})`);
      }
      const parsed = LabelledEntry.safeParse(input);
      if (!parsed.success) throw new SchemaError(`${file}:${i + 1}`, parsed.error.issues, input);
      out.push(toEntry(parsed.data, parsed.data.label));
    });
    return out;
  }
  const input = parseYaml(text, file, {});
  if (Array.isArray(input)) {
    const parsed = ListCorpus.safeParse(input);
    if (!parsed.success) throw new SchemaError(file, parsed.error.issues, input);
    return parsed.data.map((e) => toEntry(e, e.label));
  }
  const parsed = MappingCorpus.safeParse(input);
  if (!parsed.success) throw new SchemaError(file, parsed.error.issues, input);
  return [...parsed.data.danger.map((e) => toEntry(e, "danger")), ...parsed.data.benign.map((e) => toEntry(e, "benign"))];
}

export function readCorpus(file: string): CorpusEntry[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new InputError("--corpus", file, "a readable corpus file (YAML or JSONL)");
  }
  const entries = parseCorpus(text, file);
  if (entries.length === 0) throw new InputError(file, "(root)", "at least one danger or benign entry");
  return entries;
}

/** One line for a call: the command itself, or `tool {args}`. */
export function showCall(call: CorpusEntry["call"]): string {
  return call.tool === "bash" ? String(call.args.command) : `${call.tool} ${JSON.stringify(call.args)}`;
}

export interface CorpusRow {
  call: string;
  label: Label;
  decision: Verdict;
  reason: string;
  code?: string;
  task?: string;
  note?: string;
}

export interface GateCorpusScore {
  gate: string;
  danger: number;
  caught: number;
  /** caught / danger, null without danger entries. */
  recall: number | null;
  benign: number;
  passed: number;
  /** passed / benign, null without benign entries. */
  pass_rate: number | null;
  misses: CorpusRow[];
  false_stops: CorpusRow[];
  latency_ms: { p50: number; p99: number; mean: number };
  /**
   * Decisions per second: the entries over the wall time the gate took to decide them (several at
   * once where its layers allow, decisionsInFlight), worlds built and the gate put on them excluded.
   */
  decisions_per_sec: number;
}

export interface CorpusReport {
  entries: number;
  worlds: { key: string; source: WorldSource; entries: number }[];
  /** Set when some entries were decided on an empty world. */
  empty_world_note?: string;
  gates: GateCorpusScore[];
  wall_ms: number;
}

export const EMPTY_WORLD_NOTE = "the world was empty (no task, --world or --world-dir): gates that resolve targets may decide differently on a real world";

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** `n` decisions in `ms` milliseconds, per second (0 when no time was measured). */
export const perSecond = (n: number, ms: number): number => (ms > 0 ? Math.round((n / ms) * 1000) : 0);

/**
 * One gate's score. `decidingMs`, the wall time its decisions took together (they may overlap),
 * gives its decisions per second; without it, the sum of the decisions' own times does.
 */
export function scoreGate(gate: string, decided: readonly { entry: CorpusEntry; d: CallDecision }[], decidingMs?: number): GateCorpusScore {
  const row = ({ entry, d }: { entry: CorpusEntry; d: CallDecision }): CorpusRow => ({
    call: showCall(entry.call),
    label: entry.label,
    decision: d.decision,
    reason: d.reason.split("\n")[0]!,
    ...(d.code ? { code: d.code } : {}),
    ...(entry.task ? { task: entry.task } : {}),
    ...(entry.note ? { note: entry.note } : {}),
  });
  const danger = decided.filter((x) => x.entry.label === "danger");
  const benign = decided.filter((x) => x.entry.label === "benign");
  const misses = danger.filter((x) => x.d.decision === "allow");
  const stops = benign.filter((x) => x.d.decision !== "allow");
  const ms = decided.map((x) => x.d.ms).sort((a, b) => a - b);
  const total = ms.reduce((a, b) => a + b, 0);
  return {
    gate,
    danger: danger.length,
    caught: danger.length - misses.length,
    recall: danger.length ? round3((danger.length - misses.length) / danger.length) : null,
    benign: benign.length,
    passed: benign.length - stops.length,
    pass_rate: benign.length ? round3((benign.length - stops.length) / benign.length) : null,
    misses: misses.map(row),
    false_stops: stops.map(row),
    latency_ms: { p50: round3(percentile(ms, 50)), p99: round3(percentile(ms, 99)), mean: round3(ms.length ? total / ms.length : 0) },
    decisions_per_sec: perSecond(ms.length, decidingMs ?? total),
  };
}

/** Every entry's decision under every gate, by gate name in entry order, and the worlds they were decided on. */
export interface DecidedEntries {
  decided: Map<string, { entry: CorpusEntry; d: CallDecision }[]>;
  worlds: CorpusReport["worlds"];
  /** Per gate, the wall time its entries took to decide, milliseconds (worlds and the gate's setup on them excluded). */
  deciding_ms: Map<string, number>;
}

/**
 * Layer kinds whose decision depends on the call and the world only (they keep nothing from one
 * call to the next): a configuration made of them alone has its entries decided side by side. A
 * hook (`claude-hook`, `cc-safety-net`) is a fresh process in a read-only sandbox per call. A Pi
 * extension may keep state between calls, and so may the project gates a configuration's project
 * trust loads from a world: their entries go one by one, in order, as before.
 */
export const CALL_ONLY_KINDS: ReadonlySet<string> = new Set([
  "pi-permission-gate",
  "path-policy",
  "pi-protected-paths",
  "risk-classifier",
  "permission-levels",
  "shell-ast",
  "claude-hook",
  "cc-safety-net",
]);

/** Layer kinds that start a process for every call. */
export const PROCESS_PER_CALL_KINDS: ReadonlySet<string> = new Set(["claude-hook", "cc-safety-net"]);

/**
 * Decisions in flight at once for an in-process configuration: they wait on the world's sandbox
 * (lookups, dry runs), so several overlap those waits; their own work runs on this one thread.
 */
export const IN_PROCESS_IN_FLIGHT = 8;

/**
 * How many of a configuration's entries are decided at once on a world where it loaded
 * `projectGates` project gates: one when a layer (or a project gate) may keep state between calls;
 * the number of cores for a configuration that starts a process per call (each decision is a
 * process; gate processes never run more than that many at a time); else IN_PROCESS_IN_FLIGHT.
 */
export function decisionsInFlight(config: Pick<GateConfig, "layerKinds">, projectGates: number, cores: number = availableParallelism()): number {
  if (projectGates > 0 || config.layerKinds.some((k) => !CALL_ONLY_KINDS.has(k))) return 1;
  if (config.layerKinds.some((k) => PROCESS_PER_CALL_KINDS.has(k))) return Math.max(1, cores);
  return IN_PROCESS_IN_FLIGHT;
}

/** `fn` over every item, at most `limit` at a time, the results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

export interface DecideOptions {
  /**
   * false: every lookup asked of the world's helper and every dry run in a sandbox of its own, as
   * `explain` decides a single call (kept to check that the shared world decides the same).
   */
  sharedWorld?: boolean;
}

/**
 * Worlds set up and decided together: a configuration's entries on them are decided side by side,
 * so one world's waits on its sandbox (a lookup the listing cannot answer, a dry run) overlap
 * another's decisions. Bounded, as each world is a sandbox with its helpers.
 */
export const WORLDS_AT_ONCE = 4;

/** A world opened for deciding: its entries, its remembering view and what closes it. */
interface DecidingWorld {
  key: string;
  group: CorpusEntry[];
  open: OpenWorld;
  shared: SharedWorld | undefined;
  env: EnvView;
}

async function openDecidingWorld(key: string, group: CorpusEntry[], base: WorldChoice, cores: number, opts: DecideOptions): Promise<DecidingWorld> {
  const open = await openWorld(key ? { task: key, tasksDirs: base.tasksDirs } : base);
  try {
    const shared = opts.sharedWorld === false ? undefined : await shareWorld(open.world);
    const env = rememberingEnv(shared?.env ?? open.world.env, cores);
    // The world's helper answers its first question slower than the rest: part of setting the world up, not of a decision.
    await open.world.env.lstat(open.world.env.cwd).catch(() => null);
    return { key, group, open, shared, env };
  } catch (e) {
    await open.close();
    throw e;
  }
}

async function closeDecidingWorld(w: DecidingWorld): Promise<void> {
  w.shared?.close();
  await w.open.close();
}

/**
 * Decide every entry under every gate, one world per task (built once, shared by all gates, its
 * lookups answered from one listing of it, its dry runs run in one read-only sandbox kept for it
 * (world-index.ts), its lookups and one-shot gate processes remembered). Nothing is run. Worlds
 * are set up WORLDS_AT_ONCE at a time; a configuration's entries on them are decided
 * `decisionsInFlight` at a time (one by one, in order, where a layer or a project gate on any of
 * them may keep state), gate processes at most `cores` at a time on each world.
 */
export async function decideEntries(
  gates: readonly GateConfig[],
  entries: readonly CorpusEntry[],
  base: WorldChoice = {},
  cores: number = availableParallelism(),
  opts: DecideOptions = {},
): Promise<DecidedEntries> {
  const groups = new Map<string, CorpusEntry[]>();
  for (const e of entries) {
    const key = e.task ?? "";
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const decided = new Map<string, { entry: CorpusEntry; d: CallDecision }[]>(gates.map((g) => [g.name, []]));
  const decidingMs = new Map<string, number>(gates.map((g) => [g.name, 0]));
  const worlds: CorpusReport["worlds"] = [];
  const keys = [...groups.keys()];
  let warm = false;
  for (let b = 0; b < keys.length; b += WORLDS_AT_ONCE) {
    const opened: DecidingWorld[] = [];
    try {
      const batch = keys.slice(b, b + WORLDS_AT_ONCE);
      const settled = await Promise.allSettled(batch.map((key) => openDecidingWorld(key, groups.get(key)!, base, cores, opts)));
      for (const s of settled) if (s.status === "fulfilled") opened.push(s.value);
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
      if (failed) throw failed.reason;
      for (const w of opened) worlds.push({ key: w.key || "(no task)", source: w.open.source, entries: w.group.length });
      for (const config of gates) {
        const onWorlds: GateOnWorld[] = [];
        for (const w of opened) onWorlds.push(await gateOnWorld(config, w.env));
        // One untimed decision per gate first: one-time loading (the bash grammar) is not a decision's cost.
        if (!warm) await decideCall(onWorlds[0]!, { id: "warm-up", tool: "bash", args: { command: "true" }, permission: "Execute" }, opened[0]!.env);
        const inFlight = Math.min(...onWorlds.map((g) => decisionsInFlight(config, g.layers.length - config.layers.length, cores)));
        const items = opened.flatMap((w, i) => w.group.map((entry) => ({ entry, g: onWorlds[i]!, env: w.env })));
        const t0 = performance.now();
        const ds = await mapLimited(items, inFlight, ({ entry, g, env }) => {
          const permission = TOOL_PERMISSIONS[entry.call.tool];
          const call: ProposedCall = { id: "corpus", tool: entry.call.tool, args: structuredClone(entry.call.args), ...(permission ? { permission } : {}) };
          return decideCall(g, call, envWith(env, { cwd: entry.cwd, home: entry.home }));
        });
        decidingMs.set(config.name, decidingMs.get(config.name)! + (performance.now() - t0));
        decided.get(config.name)!.push(...items.map(({ entry }, i) => ({ entry, d: ds[i]! })));
      }
      warm = true;
    } finally {
      await Promise.all(opened.map(closeDecidingWorld));
    }
  }
  return { decided, worlds, deciding_ms: decidingMs };
}

/** Decide every entry under every gate, one world per task (built once, shared by all gates). */
export async function runCorpus(gates: readonly GateConfig[], entries: readonly CorpusEntry[], base: WorldChoice = {}): Promise<CorpusReport> {
  const t0 = performance.now();
  const { decided, worlds, deciding_ms } = await decideEntries(gates, entries, base);
  const empty = worlds.some((w) => w.source.kind === "empty");
  return {
    entries: entries.length,
    worlds,
    ...(empty ? { empty_world_note: EMPTY_WORLD_NOTE } : {}),
    gates: gates.map((g) => scoreGate(g.name, decided.get(g.name)!, deciding_ms.get(g.name))),
    wall_ms: Math.round(performance.now() - t0),
  };
}

const pct = (x: number | null) => (x === null ? "-" : `${(x * 100).toFixed(1)}%`);

/** The terminal form of a corpus report. */
export function formatCorpusReport(r: CorpusReport, file: string): string {
  const danger = r.gates[0]?.danger ?? 0;
  const benign = r.gates[0]?.benign ?? 0;
  const lines = [`corpus: ${file}: ${danger} danger, ${benign} benign; ${r.worlds.length} world(s); ${(r.wall_ms / 1000).toFixed(1)} s`];
  if (r.empty_world_note) lines.push(`note: ${r.empty_world_note}`);
  const w = Math.max(12, ...r.gates.map((g) => g.gate.length));
  lines.push("", `${"gate".padEnd(w)}  ${"recall (danger)".padEnd(20)}  ${"pass (benign)".padEnd(20)}  p50 ms   p99 ms   decisions/s`);
  for (const g of r.gates) {
    const recall = `${g.caught}/${g.danger} ${pct(g.recall)}`;
    const pass = `${g.passed}/${g.benign} ${pct(g.pass_rate)}`;
    const timing = `${g.latency_ms.p50.toFixed(2).padStart(6)}  ${g.latency_ms.p99.toFixed(2).padStart(7)}  ${String(g.decisions_per_sec).padStart(11)}`;
    lines.push(`${g.gate.padEnd(w)}  ${recall.padEnd(20)}  ${pass.padEnd(20)}  ${timing}`);
  }
  for (const g of r.gates) {
    if (g.misses.length)
      lines.push("", `misses of ${g.gate} (danger allowed):`, ...g.misses.map((m) => `  ${m.task ? `[${m.task}] ` : ""}${m.call.split("\n")[0]}`));
    if (g.false_stops.length) {
      lines.push(
        "",
        `false stops of ${g.gate} (benign stopped):`,
        ...g.false_stops.map((m) => `  ${m.decision.padEnd(7)} ${m.task ? `[${m.task}] ` : ""}${m.call.split("\n")[0]}  (${m.code ?? m.reason.slice(0, 80)})`),
      );
    }
  }
  return lines.join("\n");
}

/**
 * `gatebench history`: a user's real tool calls decided under chosen gates, the way
 * `explain --corpus` decides a corpus (harness/apps/explain/corpus.ts: nothing runs; one empty
 * world, so gates that resolve targets see no files), and what each gate would have cost:
 *
 * - friction: the share of the real calls it would have asked about or denied, per 100 calls;
 * - the commands behind most of it: friction grouped by the command's program (and subcommand,
 *   and its first option word: `git push`, `rm -rf`), the top N by count, each with an example;
 * - wrong blocks: calls it denies that the session shows succeeding and being kept, that is
 *   ended `ok` and were not undone by a later call of the session (`undoneLater`).
 */
import type { GateConfig } from "../../../gates/config.ts";
import { redact, summarizeCall } from "../../text/redact/redact.ts";
import { splitSegments, splitWords } from "../../text/shell.ts";
import type { MappedCall } from "../../model/import/map.ts";
import { decideEntries, EMPTY_WORLD_NOTE, perSecond, type CorpusEntry } from "../explain/corpus.ts";
import type { CallDecision, Verdict } from "../explain/decide.ts";
import { shortName, type HistoryCall, type HistorySession, type SkippedFile } from "./sessions.ts";

/** One call gatebench's tools can make, with where it came from. */
export interface DecidedCall {
  session: string;
  /** The recorded call's index in its session (a patch may make several calls with one index). */
  index: number;
  call: MappedCall;
  status: HistoryCall["status"];
  undone: boolean;
}

export interface CommandCount {
  command: string;
  count: number;
  /** Its share of the gate's friction. */
  share: number;
  example: string;
}

export interface WrongBlock {
  session: string;
  index: number;
  call: string;
  reason: string;
}

export interface GateHistory {
  gate: string;
  calls: number;
  allowed: number;
  asked: number;
  denied: number;
  /** (asked + denied) per 100 calls. */
  friction_per_100: number | null;
  top: CommandCount[];
  wrong_blocks: WrongBlock[];
  /** Calls decided per second: the calls over the wall time the gate took to decide them (the world excluded). */
  decisions_per_s: number;
}

export interface HistoryReport {
  files: number;
  sessions: { file: string; format: string; calls: number }[];
  skipped: SkippedFile[];
  /** Recorded calls, and those with no gatebench equivalent (not decided). */
  recorded_calls: number;
  unmappable: { session: string; index: number; name: string; reason: string }[];
  decided_calls: number;
  world_note: string;
  gates: GateHistory[];
  wall_ms: number;
}

const SUBCOMMANDS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "npx",
  "docker",
  "kubectl",
  "cargo",
  "go",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "brew",
  "apt",
  "apt-get",
  "systemctl",
  "gh",
  "terraform",
  "make",
]);
const PREFIXES = new Set(["sudo", "env", "nice", "time", "command", "exec", "nohup"]);

/** What a call's friction is grouped by: `rm -rf`, `git push`, `write`. */
export function commandKey(call: MappedCall): string {
  if (call.tool !== "bash") return call.tool;
  const command = String(call.args.command ?? "");
  const segments = splitSegments(command);
  const text = segments?.map((s) => s.text).find((t) => !/^cd(\s|$)/.test(t)) ?? command;
  const words = (splitWords(text) ?? text.split(/\s+/).map((raw) => ({ raw, literal: raw }))).map((w) => w.literal ?? w.raw);
  let i = 0;
  while (i < words.length && (PREFIXES.has(words[i]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
  const program = (words[i] ?? "").split("/").pop() ?? "";
  if (!program) return "bash";
  const rest = words.slice(i + 1);
  if (SUBCOMMANDS.has(program)) {
    const sub = rest.find((w) => !w.startsWith("-"));
    return sub ? `${program} ${sub}` : program;
  }
  const flag = rest.find((w) => /^-[A-Za-z]/.test(w));
  return flag ? `${program} ${flag}` : program;
}

const UNDO = /\bgit\s+(checkout|restore|reset|revert|stash\s+(pop|apply))\b|\btrash-restore\b/;

/** The paths a call names: a file tool's path; a command's arguments that are not options (program names left out). */
function targets(call: MappedCall): string[] {
  const clean = (w: string) => w.replace(/^\.\//, "").replace(/\/+$/, "");
  if (call.tool !== "bash") return typeof call.args.path === "string" ? [clean(call.args.path)] : [];
  const command = String(call.args.command ?? "");
  const words = (splitSegments(command) ?? [{ text: command, op: "" }]).flatMap((seg) =>
    (splitWords(seg.text) ?? seg.text.split(/\s+/).map((raw) => ({ raw, literal: raw })))
      .slice(1)
      .map((w) => w.literal ?? w.raw)
      .filter((w) => w && !w.startsWith("-")),
  );
  return [...new Set(words.map(clean).filter((w) => w.length > 1 && w !== ".."))];
}

/** Two paths name the same thing, or one lies inside the other. */
const overlaps = (a: string, b: string) => a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);

/**
 * Whether a later call of the session undid call `i`: a git checkout/restore/reset/revert or
 * stash pop/apply (or trash-restore) naming one of its paths, or, for a deletion, a later
 * write, `touch`, `mkdir` or `cp`/`mv` onto one of them (or inside it). A heuristic: a session
 * shows what ran, not why.
 */
export function undoneLater(calls: readonly MappedCall[], i: number): boolean {
  const call = calls[i]!;
  const mine = targets(call);
  if (mine.length === 0) return false;
  const deletes = call.tool === "delete" || (call.tool === "bash" && /\b(rm|rmdir|unlink|shred|truncate)\b|-delete\b/.test(String(call.args.command ?? "")));
  for (const later of calls.slice(i + 1)) {
    if (!targets(later).some((t) => mine.some((m) => overlaps(m, t)))) continue;
    if (later.tool === "bash" && UNDO.test(String(later.args.command ?? ""))) return true;
    if (deletes && (later.tool === "write" || (later.tool === "bash" && /\b(touch|mkdir|cp|mv)\b/.test(String(later.args.command ?? ""))))) return true;
  }
  return false;
}

/** The calls to decide, in session order, each knowing whether it ran ok and stayed. */
export function decidedCalls(sessions: readonly HistorySession[]): { calls: (DecidedCall & { cwd?: string })[]; unmappable: HistoryReport["unmappable"] } {
  const names = sessions.map((s) => s.file);
  const calls: (DecidedCall & { cwd?: string })[] = [];
  const unmappable: HistoryReport["unmappable"] = [];
  for (const s of sessions) {
    const session = shortName(s.file, names);
    const flat: { c: HistoryCall; call: MappedCall }[] = [];
    for (const c of s.calls) {
      if ("reason" in c.mapped) unmappable.push({ session, index: c.index, name: c.name, reason: c.mapped.reason });
      else for (const call of c.mapped) flat.push({ c, call });
    }
    const all = flat.map((f) => f.call);
    flat.forEach(({ c, call }, i) =>
      calls.push({ session, index: c.index, call, status: c.status, undone: undoneLater(all, i), ...(c.cwd?.startsWith("/") ? { cwd: c.cwd } : {}) }),
    );
  }
  return { calls, unmappable };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

const SHOWN = 160;

/**
 * One line for a call: a bash command's first line, or a file tool's summary (no file bodies).
 * Redacted before it is cut: a secret cut in half is no longer recognised by its shape.
 */
export function showShort(call: MappedCall): string {
  if (call.tool !== "bash") return summarizeCall(call.tool, call.args);
  const first = redact(String(call.args.command ?? "").split("\n")[0]!);
  return first.length > SHOWN ? `${first.slice(0, SHOWN)}…` : first;
}

/** One gate's friction, top commands and wrong blocks over the decided calls. */
export function gateHistory(gate: string, calls: readonly DecidedCall[], decisions: readonly CallDecision[], top: number, decidingMs = 0): GateHistory {
  const verdicts: Verdict[] = decisions.map((d) => d.decision);
  const stopped = calls.map((c, i) => ({ c, d: decisions[i]! })).filter((x) => x.d.decision !== "allow");
  const byKey = new Map<string, { count: number; example: string }>();
  for (const { c } of stopped) {
    const key = commandKey(c.call);
    const k = byKey.get(key) ?? { count: 0, example: showShort(c.call) };
    k.count += 1;
    byKey.set(key, k);
  }
  const friction = stopped.length;
  return {
    gate,
    calls: calls.length,
    allowed: verdicts.filter((v) => v === "allow").length,
    asked: verdicts.filter((v) => v === "confirm").length,
    denied: verdicts.filter((v) => v === "deny").length,
    friction_per_100: calls.length ? round1((friction / calls.length) * 100) : null,
    top: [...byKey]
      .sort(([a, x], [b, y]) => y.count - x.count || a.localeCompare(b))
      .slice(0, top)
      .map(([command, k]) => ({ command, count: k.count, share: Math.round((k.count / friction) * 1000) / 1000, example: k.example })),
    wrong_blocks: calls.flatMap((c, i) =>
      decisions[i]!.decision === "deny" && c.status === "ok" && !c.undone
        ? [
            {
              session: c.session,
              index: c.index,
              call: showShort(c.call),
              reason: redact(`${decisions[i]!.code ?? "deny"}: ${decisions[i]!.reason.split("\n")[0]}`),
            },
          ]
        : [],
    ),
    decisions_per_s: perSecond(calls.length, decidingMs),
  };
}

/** Decide every call of the sessions under every gate (nothing is run) and sum up what each gate would have cost. */
export async function historyReport(
  gates: readonly GateConfig[],
  sessions: readonly HistorySession[],
  skipped: readonly SkippedFile[],
  files: number,
  top = 5,
): Promise<HistoryReport> {
  const t0 = performance.now();
  const { calls, unmappable } = decidedCalls(sessions);
  const entries: CorpusEntry[] = calls.map((c) => ({ label: "benign", call: c.call, ...(c.cwd ? { cwd: c.cwd } : {}) }));
  const { decided, deciding_ms } = entries.length
    ? await decideEntries(gates, entries)
    : { decided: new Map<string, { d: CallDecision }[]>(), deciding_ms: new Map<string, number>() };
  return {
    files,
    sessions: sessions.map((s) => ({ file: s.file, format: s.format, calls: s.calls.length })),
    skipped: [...skipped],
    recorded_calls: sessions.reduce((n, s) => n + s.calls.length, 0),
    unmappable,
    decided_calls: calls.length,
    world_note: EMPTY_WORLD_NOTE,
    gates: gates.map((g) =>
      gateHistory(
        g.name,
        calls,
        (decided.get(g.name) ?? []).map((x) => x.d),
        top,
        deciding_ms.get(g.name),
      ),
    ),
    wall_ms: Math.round(performance.now() - t0),
  };
}

/** The terminal form of a history report (the caller redacts and escapes it). */
export function formatHistoryReport(r: HistoryReport): string {
  const formats = new Map<string, number>();
  for (const s of r.sessions) formats.set(s.format, (formats.get(s.format) ?? 0) + 1);
  const lines = [
    `history: ${r.files} file(s), ${r.sessions.length} session(s) (${[...formats].map(([f, n]) => `${f} ${n}`).join(", ") || "none"}), ` +
      `${r.recorded_calls} recorded tool calls: ${r.decided_calls} decided, ${r.unmappable.length} with no gatebench equivalent; ${(r.wall_ms / 1000).toFixed(1)} s`,
    `note: nothing was run; ${r.world_note}`,
  ];
  if (r.skipped.length) lines.push(`skipped ${r.skipped.length} file(s): ${r.skipped.map((s) => `${s.file} (${s.reason})`).join("; ")}`);
  const w = Math.max(12, ...r.gates.map((g) => g.gate.length));
  lines.push("", `${"gate".padEnd(w)}  calls  asked  denied  friction/100 calls  wrong blocks  decisions/s`);
  for (const g of r.gates)
    lines.push(
      `${g.gate.padEnd(w)}  ${String(g.calls).padStart(5)}  ${String(g.asked).padStart(5)}  ${String(g.denied).padStart(6)}  ${(g.friction_per_100 === null ? "–" : g.friction_per_100.toFixed(1)).padStart(17)}  ${String(g.wrong_blocks.length).padStart(12)}  ${String(g.decisions_per_s).padStart(11)}`,
    );
  for (const g of r.gates) {
    if (g.top.length)
      lines.push(
        "",
        `${g.gate}: the commands behind most of its friction`,
        ...g.top.map((t) => `  ${t.command.padEnd(20)} ${String(t.count).padStart(4)} (${Math.round(t.share * 100)}%)  e.g. ${t.example}`),
      );
    if (g.wrong_blocks.length)
      lines.push(
        "",
        `${g.gate}: wrong blocks (denied, but the session ran the call, it succeeded and was kept)`,
        ...g.wrong_blocks.map((b) => `  ${b.session} call ${b.index}: ${b.call}  (${b.reason.slice(0, 120)})`),
      );
  }
  return lines.join("\n");
}

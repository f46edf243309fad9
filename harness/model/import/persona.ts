/**
 * A recorded session as a persona. Each recorded call is one step; the call the agent made
 * right after a call that was blocked (or failed) is its reaction, so it becomes that step's
 * `on_block` (or `on_error`) branch, nested when the reaction was blocked too; the rest of the
 * session continues in the main list. Calls that cannot be mapped are listed, never dropped
 * silently (and, in the YAML, written as a comment block).
 */
import { basename } from "node:path";
import { stringify } from "yaml";
import type { Persona, Step } from "../task/schema.ts";
import { MAX_SESSION_BYTES, readSession } from "./formats.ts";
import { readRegularFile } from "../../sandbox/files/contained.ts";
import { mapCall, pathMap, rewriteCall, type MappedCall } from "./map.ts";
import type { RecordedSession, RecordedStatus } from "./types.ts";
import type { TranscriptFormat } from "../task/schema.ts";

export interface Unmapped {
  index: number;
  name: string;
  reason: string;
}

export interface ImportResult {
  persona: Persona;
  unmapped: Unmapped[];
  /** The mapped calls in recorded order (what the persona replays, branches included). */
  calls: MappedCall[];
  yaml: string;
}

export interface ImportOptions {
  format: TranscriptFormat;
  file: string;
  name?: string;
  harmful?: boolean;
  /** Extra [recorded dir, sandbox dir] pairs (--map-root); the recorded cwd maps to /workspace. */
  mapRoots?: [string, string][];
  /** Overrides the recorded project root. */
  root?: string;
  home?: string;
}

interface Item {
  say?: string;
  call: MappedCall;
  status: RecordedStatus;
}

/** Build steps: a blocked/failed call takes the next item as its branch (recursively). */
export function stepsFrom(items: readonly Item[], finalSay?: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const take = (): Step => {
    const it = items[i++]!;
    const step: Step = { ...(it.say ? { say: it.say } : {}), tool: it.call.tool, args: it.call.args };
    if ((it.status === "blocked" || it.status === "error") && i < items.length) {
      step[it.status === "blocked" ? "on_block" : "on_error"] = [take()];
    }
    return step;
  };
  while (i < items.length) steps.push(take());
  steps.push({ say: finalSay?.trim() ? finalSay.trim() : "Done." });
  return steps;
}

/** All tool calls of a step list in replay-file order (main list and branches, depth first). */
export function flattenCalls(steps: readonly Step[]): MappedCall[] {
  return steps.flatMap((s) => [
    ...(s.tool ? [{ tool: s.tool, args: (s.args ?? {}) as Record<string, unknown> }] : []),
    ...flattenCalls(s.on_block ?? []),
    ...flattenCalls(s.on_error ?? []),
  ]);
}

export function sessionToPersona(session: RecordedSession, opts: Omit<ImportOptions, "format">): ImportResult {
  const map = pathMap({ root: opts.root ?? session.cwd, home: opts.home, extra: opts.mapRoots });
  const items: Item[] = [];
  const unmapped: Unmapped[] = [];
  session.calls.forEach((c, index) => {
    const m = mapCall(c);
    if (!m.ok) {
      unmapped.push({ index: index + 1, name: c.name, reason: m.reason });
      return;
    }
    m.calls.forEach((call, j) =>
      items.push({ ...(j === 0 && c.say ? { say: c.say } : {}), call: rewriteCall(call, map), status: j === m.calls.length - 1 ? c.status : "ok" }),
    );
  });
  const name = (opts.name ?? `import-${session.format}-${basename(opts.file).replace(/\.[^.]*$/, "")}`)
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "");
  const steps = stepsFrom(items, session.finalSay);
  const persona: Persona = {
    name,
    description: `Replay of a recorded ${session.format} session (${items.length} calls${unmapped.length ? `, ${unmapped.length} not mappable` : ""}).`,
    harmful: opts.harmful ?? false,
    provenance:
      `Imported from the ${session.format} transcript in file ${basename(opts.file)}` +
      `${session.date ? `, recorded ${session.date}` : ""}${map.roots.length ? `; paths ${map.roots.map(([a, b]) => `${a} -> ${b}`).join(", ")}` : ""}.`,
    steps,
  };
  const comment = unmapped.length
    ? `# Calls of the recording with no gatebench equivalent (not replayed):\n${unmapped.map((u) => `#   call ${u.index} ${u.name}: ${u.reason}`).join("\n")}\n`
    : "";
  return { persona, unmapped, calls: flattenCalls(steps), yaml: comment + stringify(persona, { lineWidth: 0 }) };
}

export function importTranscript(opts: ImportOptions): ImportResult {
  const bytes = new Uint8Array(readRegularFile(opts.file, { maxBytes: MAX_SESSION_BYTES, follow: true }));
  return sessionToPersona(readSession(opts.format, bytes, opts.file), opts);
}

/**
 * A user's own agent sessions as a list of real tool calls: the files under the folders (found
 * recursively) or the files given, each read in the transcript format it is written in
 * (claude-code, pi, codex, inspect, atif: harness/model/import/formats.ts), every call mapped
 * onto gatebench's tools with its working directory, the session's project root moved to
 * /workspace and its home to /home/user (harness/model/import/map.ts). Nothing is run.
 */
import { lstatSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { strFromU8 } from "fflate";
import { InputError } from "../../../kernel/errors.ts";
import { MAX_SESSION_BYTES, readSession } from "../../model/import/formats.ts";
import { readRegularFile } from "../../sandbox/files/contained.ts";
import { mapCall, pathMap, rewriteCall, rewritePaths, type MappedCall } from "../../model/import/map.ts";
import type { RecordedStatus } from "../../model/import/types.ts";
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from "../../model/task/schema.ts";

/** One tool call of a session, as recorded and as gatebench's tools would make it. */
export interface HistoryCall {
  /** 1-based among the session's recorded calls. */
  index: number;
  /** The recorded tool name (Bash, shell, apply_patch...). */
  name: string;
  status: RecordedStatus;
  /** The call as gatebench's tools, after path mapping (a recorded call may make several, e.g. a patch), or why it cannot be. */
  mapped: MappedCall[] | { reason: string };
  /** The working directory in the sandbox's terms (/workspace/...), when the format records one. */
  cwd?: string;
}

export interface HistorySession {
  file: string;
  format: TranscriptFormat;
  /** The recorded project root (mapped to /workspace). */
  root?: string;
  calls: HistoryCall[];
}

export interface SkippedFile {
  file: string;
  reason: string;
}

const CANDIDATE = /\.(jsonl|json|eval)$/;

/** Every candidate session file under `paths` (folders walked recursively, without following links), sorted. */
export function findSessionFiles(paths: readonly string[]): string[] {
  const out = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && CANDIDATE.test(name)) out.add(p);
    }
  };
  for (const p of paths) {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(p);
    } catch {
      throw new InputError("command line", p, "a folder or file of agent sessions that exists");
    }
    if (st.isDirectory()) walk(p);
    else out.add(p);
  }
  return [...out].sort();
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Which transcript format a file is in, from its content; undefined when it is none of them. */
export function sniffFormat(file: string, bytes: Uint8Array): TranscriptFormat | undefined {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return file.endsWith(".eval") ? "inspect" : undefined;
  const text = strFromU8(bytes);
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") && !file.endsWith(".jsonl")) {
    try {
      const doc = JSON.parse(text) as unknown;
      if (isObj(doc) && Array.isArray(doc.samples)) return "inspect";
      if (isObj(doc) && Array.isArray(doc.steps)) return "atif";
    } catch {
      // not one JSON document: maybe JSON lines
    }
  }
  const lines = text.split("\n", 200);
  for (const line of lines) {
    if (!line.trim().startsWith("{")) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObj(v)) continue;
    if (v.type === "session" && typeof v.version === "number") return "pi";
    if (isObj(v.payload) && typeof v.type === "string" && ["session_meta", "response_item", "turn_context", "event_msg"].includes(v.type)) return "codex";
    if ((v.type === "user" || v.type === "assistant") && isObj(v.message)) return "claude-code";
  }
  return undefined;
}

/** The sessions of the files, each call mapped; files in no known format, or unreadable, are skipped with the reason. */
export function readHistory(files: readonly string[], format?: TranscriptFormat): { sessions: HistorySession[]; skipped: SkippedFile[] } {
  const sessions: HistorySession[] = [];
  const skipped: SkippedFile[] = [];
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      // A regular file only (a FIFO named on the command line would block the read), and bounded.
      bytes = new Uint8Array(readRegularFile(file, { maxBytes: MAX_SESSION_BYTES, follow: true }));
    } catch (e) {
      skipped.push({
        file,
        reason:
          e instanceof InputError ? `unreadable (${e.field}: ${e.expected})` : `unreadable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      });
      continue;
    }
    const f = format ?? sniffFormat(file, bytes);
    if (!f) {
      skipped.push({ file, reason: `not a session of ${TRANSCRIPT_FORMATS.join(", ")}` });
      continue;
    }
    let session: ReturnType<typeof readSession>;
    try {
      session = readSession(f, bytes, file);
    } catch (e) {
      skipped.push({ file, reason: `not a readable ${f} session: ${(e as Error).message.split("\n")[0]}` });
      continue;
    }
    const map = pathMap({ root: session.cwd });
    const calls = session.calls.map((c, i): HistoryCall => {
      const m = mapCall(c);
      return {
        index: i + 1,
        name: c.name,
        status: c.status,
        mapped: m.ok ? m.calls.map((x) => rewriteCall(x, map)) : { reason: m.reason },
        ...(c.cwd ? { cwd: rewritePaths(c.cwd, map) } : {}),
      };
    });
    sessions.push({ file, format: f, ...(session.cwd ? { root: session.cwd } : {}), calls });
  }
  return { sessions, skipped };
}

/** A short name for a session file in reports: its name, with its folder when names repeat. */
export function shortName(file: string, all: readonly string[]): string {
  const name = basename(file);
  return all.filter((f) => basename(f) === name).length > 1 ? file : name;
}

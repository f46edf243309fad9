/**
 * What a harmful call does, as far as the evasion catalogue needs to know: an `rm` of some
 * targets (from bash or the delete tool), a clobber of some files (a whole-file write or a
 * truncating `>`), or any other shell command (wrapped as a whole). Pure.
 */
import { posix } from "node:path";
import { splitSegments, splitWords, type Segment, type Word } from "../../text/shell.ts";

export interface Call {
  tool: string;
  args: Record<string, unknown>;
}

/** Where the call runs: the agent's working directory and home inside the sandbox. */
export interface CallContext {
  cwd: string;
  home: string;
  /**
   * The text of the files the call overwrites, as they are just before it runs, by absolute
   * sandbox path (null: no regular text file there), when the engine has read them from a fresh
   * world (file-texts.ts). An `edit` that blanks a file must quote its whole text.
   */
  texts?: ReadonlyMap<string, string | null>;
}

export type Intent =
  | {
      kind: "rm";
      /** Segments before the rm (e.g. `cd site/src`), kept in front of every variant. */
      before: Segment[];
      /** Segments after the rm (e.g. `mkdir -p ../data`), kept behind it. */
      after: Segment[];
      recursive: boolean;
      flags: string[];
      targets: Word[];
      /** The directory the rm runs in (after any literal `cd` in `before`). */
      cwd: string;
    }
  | { kind: "clobber"; paths: string[]; content?: string; command?: string }
  | { kind: "shell"; command: string }
  | { kind: "other" };

/** The absolute sandbox path of a word when it is a plain path (tilde allowed); undefined otherwise. */
export function resolveWord(w: Word, cwd: string, home: string): string | undefined {
  if (w.literal !== undefined) return posix.resolve(cwd, w.literal);
  if (w.tilde && !w.glob && /^~(\/[^'"$`\\]*)?$/.test(w.raw)) return posix.resolve(home, `.${w.raw.slice(1)}`);
  return undefined;
}

/** The path as the agent's tools take it: relative to cwd, `~` expanded. */
export function toolPath(path: string, cwd: string): string {
  return posix.isAbsolute(path) ? path : posix.resolve(cwd, path);
}

function rmIntent(command: string, ctx: CallContext): Intent | undefined {
  const segments = splitSegments(command);
  if (!segments) return undefined;
  const i = segments.findIndex((s) => /^rm\s/.test(s.text));
  if (i < 0) return undefined;
  if (segments.slice(0, i).some((s) => s.op === "|")) return undefined;
  if (segments[i]!.op === "|") return undefined;
  const words = splitWords(segments[i]!.text);
  if (!words) return undefined;
  const flags: string[] = [];
  const targets: Word[] = [];
  let endOfFlags = false;
  for (const w of words.slice(1)) {
    if (!endOfFlags && w.raw === "--") endOfFlags = true;
    else if (!endOfFlags && w.raw.startsWith("-") && w.raw.length > 1) flags.push(w.raw);
    else targets.push(w);
  }
  if (targets.length === 0) return undefined;
  const recursive = flags.some((f) => f === "--recursive" || (/^-[a-zA-Z]+$/.test(f) && /[rR]/.test(f)));
  let cwd = ctx.cwd;
  for (const s of segments.slice(0, i)) {
    const m = /^cd\s+(\S+)$/.exec(s.text);
    const ws = m ? splitWords(s.text) : undefined;
    if (ws && ws.length === 2) {
      const to = resolveWord(ws[1]!, cwd, ctx.home);
      if (!to) return undefined;
      cwd = to;
    }
  }
  return { kind: "rm", before: segments.slice(0, i), after: segments.slice(i + 1), recursive, flags, targets, cwd };
}

const REDIRECT = /(^|[^>&0-9])>\s*(~?[^\s>&|;<'"$`]+)\s*$/;

function clobberIntent(command: string, ctx: CallContext): Intent | undefined {
  const segments = splitSegments(command);
  if (!segments) return undefined;
  const paths: string[] = [];
  let cwd = ctx.cwd;
  for (const s of segments) {
    const cd = /^cd\s+([^\s'"$`*?[]+)$/.exec(s.text);
    if (cd) cwd = posix.resolve(cwd, cd[1]!.replace(/^~(?=\/|$)/, ctx.home));
    const m = REDIRECT.exec(s.text);
    if (!m) continue;
    const word = splitWords(m[2]!)?.[0];
    const path = word && resolveWord(word, cwd, ctx.home);
    if (path) paths.push(path);
  }
  return paths.length ? { kind: "clobber", paths, command } : undefined;
}

export function parseIntent(call: Call, ctx: CallContext): Intent {
  if (call.tool === "bash" && typeof call.args.command === "string") {
    const command = call.args.command;
    return rmIntent(command, ctx) ?? clobberIntent(command, ctx) ?? { kind: "shell", command };
  }
  if (call.tool === "delete" && typeof call.args.path === "string") {
    const path = toolPath(call.args.path, ctx.cwd);
    return {
      kind: "rm",
      before: [],
      after: [],
      recursive: call.args.recursive === true,
      flags: call.args.recursive === true ? ["-rf"] : ["-f"],
      targets: [{ raw: path, literal: path, glob: false, tilde: false }],
      cwd: ctx.cwd,
    };
  }
  if (call.tool === "write" && typeof call.args.path === "string" && typeof call.args.content === "string") {
    return { kind: "clobber", paths: [toolPath(call.args.path, ctx.cwd)], content: call.args.content };
  }
  return { kind: "other" };
}

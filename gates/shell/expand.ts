/**
 * Word expansion as bash would do it, as far as it safely can from the command line alone:
 * tilde, variables assigned earlier in the same line (unset => ""), word splitting of
 * unquoted expansions, simple brace lists, and globs against the world (EnvView.glob).
 * Anything computed at run time ($(..), $RANDOM, read) becomes an `unknown` argument.
 */
import { posix } from "node:path";
import { SANDBOX_TMP } from "../../kernel/sandbox-paths.ts";
import type { EnvView } from "../types.ts";
import type { Word, WordPart } from "./parse.ts";

export type VarValue = { kind: "known"; values: string[]; exported: boolean } | { kind: "unknown"; why: string; exported: boolean };

export interface ShellState {
  vars: Map<string, VarValue>;
  /** null once a `cd` went somewhere the analyser cannot know. */
  cwd: string | null;
  readonly home: string;
  /**
   * The output of a command substitution the analyser can compute without running anything
   * (`$(pwd)`, `$(dirname "$0")`, `$(cd "$D" && pwd)`...), or null (analyze.ts provides it).
   */
  readonly substitute: ((src: string, state: ShellState) => string | null) | undefined;
}

/** One argv entry after expansion. */
export interface Arg {
  /** Expanded text; for an unknown argument, the literal text before the first unknown part. */
  readonly text: string;
  /** Unquoted glob characters are present (expanded later against the world, when used as a path). */
  readonly glob: boolean;
  /** Why the value cannot be known; absent when `text` is exact. */
  readonly unknown?: string;
  readonly src: string;
  /** A find -exec `{}` placeholder: stands for entries under `text`, not `text` itself. */
  readonly under?: boolean;
}

const MAX_ALTERNATIVES = 32;
const IFS = /[ \t\n]+/;

export function cloneState(s: ShellState): ShellState {
  // One object shape for every state (the hot paths read these fields).
  return { vars: new Map(s.vars), cwd: s.cwd, home: s.home, substitute: s.substitute };
}

export function initialState(env: EnvView, cwd?: string): ShellState {
  const vars = new Map<string, VarValue>();
  const set = (k: string, v: string) => vars.set(k, { kind: "known", values: [v], exported: true });
  set("HOME", env.home);
  set("PWD", cwd ?? env.cwd);
  set("TMPDIR", SANDBOX_TMP);
  set("USER", "user");
  set("PATH", "/usr/local/bin:/usr/bin:/bin");
  set("0", "bash");
  return { vars, cwd: cwd ?? env.cwd, home: env.home, substitute: undefined };
}

/** A variable's candidate values, or the reason it is unknown. Unset variables expand to "". */
export function lookupVar(state: ShellState, name: string): { values: string[] } | { unknown: string } {
  if (name === "PWD") return state.cwd === null ? { unknown: "$PWD after an unknown cd" } : { values: [state.cwd] };
  if (name === "RANDOM" || name === "SECONDS" || name === "BASHPID" || name === "LINENO" || name === "EPOCHSECONDS") {
    return { unknown: `$${name} is computed at run time` };
  }
  const v = state.vars.get(name);
  if (!v) return { values: [""] };
  return v.kind === "known" ? { values: v.values } : { unknown: v.why };
}

interface Partial {
  fields: { text: string; glob: boolean; quoted: boolean }[];
}

/**
 * Expands a word into zero or more argv entries. Alternatives (a loop variable with several
 * values) are returned as extra entries: for effect analysis, every alternative is a target.
 */
export function expandWord(word: Word, state: ShellState, opts: { split?: boolean; tilde?: TildeMode } = {}): Arg[] {
  const split = opts.split ?? true;
  let alts: Partial[] = [{ fields: [{ text: "", glob: false, quoted: false }] }];
  const parts = tildeParts(word.parts, state, opts.tilde ?? "argument");
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.kind === "lit") {
      const text = p.text;
      for (const a of alts) {
        const f = a.fields[a.fields.length - 1]!;
        f.text += text;
        if (p.quoted) f.quoted = true;
        else if (/[*?[]/.test(text)) f.glob = true;
      }
      continue;
    }
    const values = partValues(p, state);
    if ("unknown" in values) {
      const prefix = alts[0]!.fields[alts[0]!.fields.length - 1]!.text;
      return [{ text: prefix, glob: false, unknown: values.unknown, src: word.src }];
    }
    const next: Partial[] = [];
    for (const a of alts) {
      for (const value of values.values) {
        if (next.length >= MAX_ALTERNATIVES) break;
        const copy: Partial = { fields: a.fields.map((f) => ({ ...f })) };
        appendValue(copy, value, p.quoted || !split);
        next.push(copy);
      }
    }
    alts = next;
  }
  const out: Arg[] = [];
  for (const a of alts) {
    for (const f of a.fields) {
      if (f.text === "" && !f.quoted) continue; // unquoted empty expansion disappears
      const items = expandBraces(f.text, word);
      // Tilde expansion happens after brace expansion: `{build,~}` -> `build ~`.
      for (const text of items) out.push({ text: items.length > 1 ? expandTilde(text, state.home) : text, glob: f.glob, src: word.src });
    }
  }
  return out;
}

/**
 * Where bash expands a tilde in a word (bash 5, not in POSIX mode):
 * - "argument": at the start of the word, and, when the word has the shape of an assignment
 *   (`name=` or `name+=` in unquoted text), right after its first `=` and after every unquoted `:`
 *   that follows (`make PREFIX=~/x`, `a=x:~/y`); never elsewhere (`--out=~/x`, `a=b~/x` stay);
 * - "assignment": an assignment's value: at its start and after every unquoted `:` (`PATH=~/bin:~/x`).
 * A tilde-prefix runs to the first unquoted `/` (or, in assignment values, `:`) or the end of the
 * word; a prefix with quoted characters or an expansion in it (`~"/x"`, `~$u`) is not expanded.
 * `~` is $HOME, `~+` the cwd, `~-` $OLDPWD when known, `~name` that user's home.
 */
export type TildeMode = "argument" | "assignment";

function tildeParts(parts: readonly WordPart[], state: ShellState, mode: TildeMode): readonly WordPart[] {
  if (!parts.some((p) => p.kind === "lit" && !p.quoted && p.text.includes("~"))) return parts;
  const first = parts[0];
  // Offset in the first part where an assignment value starts; -1 when the word is no assignment.
  let valueStart = mode === "assignment" ? 0 : -1;
  if (mode === "argument" && first?.kind === "lit" && !first.quoted) {
    const m = /^[A-Za-z_][A-Za-z0-9_]*\+?=/.exec(first.text);
    if (m) valueStart = m[0].length;
  }
  const out: WordPart[] = [];
  parts.forEach((p, index) => {
    if (p.kind !== "lit" || p.quoted || !p.text.includes("~")) {
      out.push(p);
      return;
    }
    const text = p.text;
    const inValue = (k: number) => valueStart >= 0 && (index > 0 || k >= valueStart);
    let from = 0;
    for (let k = 0; k < text.length; k++) {
      if (text[k] !== "~") continue;
      const starts = (index === 0 && k === 0) || (index === 0 && k === valueStart && valueStart > 0) || (inValue(k) && k > 0 && text[k - 1] === ":");
      if (!starts) continue;
      const stop = inValue(k) ? /[/:]/g : /\//g;
      stop.lastIndex = k + 1;
      const hit = stop.exec(text);
      // A prefix that runs on into a quoted part or an expansion is not a tilde-prefix.
      if (!hit && index < parts.length - 1) continue;
      const end = hit ? hit.index : text.length;
      const dir = tildeDir(text.slice(k + 1, end), state);
      if (dir === null) continue;
      if (k > from) out.push({ kind: "lit", text: text.slice(from, k), quoted: false });
      out.push({ kind: "lit", text: dir, quoted: true });
      from = end;
      k = end - 1;
    }
    if (from < text.length) out.push({ kind: "lit", text: text.slice(from), quoted: false });
  });
  return out;
}

/** The directory a tilde-prefix names, or null when bash leaves it as written. */
function tildeDir(login: string, state: ShellState): string | null {
  if (login === "") return state.home;
  if (login === "+") return state.cwd;
  if (login === "-") {
    const v = state.vars.get("OLDPWD");
    return v?.kind === "known" ? (v.values[0] ?? null) : null;
  }
  if (!/^[A-Za-z0-9._-]+$/.test(login)) return null;
  return login === "root" ? "/root" : `/home/${login}`;
}

/** Expands a word that must stay one string (assignment values, redirect targets). */
export function expandSingle(word: Word, state: ShellState, tilde: TildeMode = "argument"): Arg {
  const args = expandWord(word, state, { split: false, tilde });
  if (args.length === 0) return { text: "", glob: false, src: word.src };
  const unknown = args.find((a) => a.unknown);
  if (unknown) return unknown;
  if (args.length > 1) return { text: args[0]!.text, glob: false, unknown: `${word.src} has several possible values`, src: word.src };
  return args[0]!;
}

function appendValue(p: Partial, value: string, quoted: boolean): void {
  const last = p.fields[p.fields.length - 1]!;
  if (quoted) {
    last.text += value;
    last.quoted = true;
    return;
  }
  const pieces = value.split(IFS);
  const glob = /[*?[]/.test(value);
  // Leading IFS whitespace ends the current field; trailing starts a new one.
  pieces.forEach((piece, idx) => {
    const f = idx === 0 ? last : { text: "", glob: false, quoted: false };
    if (idx > 0) p.fields.push(f);
    f.text += piece;
    if (glob) f.glob = true;
  });
}

function partValues(p: Exclude<WordPart, { kind: "lit" }>, state: ShellState): { values: string[] } | { unknown: string } {
  if (p.kind === "dynamic") {
    const v = p.what === "command-substitution" && state.substitute ? state.substitute(p.src, state) : null;
    return v === null ? { unknown: `${p.src} is computed at run time` } : { values: [v] };
  }
  const v = lookupVar(state, p.name);
  if (p.fallback && "values" in v && v.values.every((x) => x === "")) {
    const fb = expandSingle(p.fallback, state);
    return fb.unknown ? { unknown: fb.unknown } : { values: [fb.text] };
  }
  return v;
}

export function expandTilde(text: string, home: string): string {
  const m = /^~([A-Za-z0-9._-]*)(\/.*)?$/.exec(text);
  if (!m) return text;
  const user = m[1] ?? "";
  const base = user === "" ? home : user === "root" ? "/root" : `/home/${user}`;
  return base + (m[2] ?? "");
}

/** `{a,b}` lists (one level, unquoted source only); `{1..3}` numeric ranges. */
function expandBraces(text: string, word: Word): string[] {
  if (!text.includes("{") || !word.parts.some((p) => p.kind === "lit" && !p.quoted && p.text.includes("{"))) return [text];
  const m = /^(.*?)\{([^{}]*)\}(.*)$/s.exec(text);
  if (!m) return [text];
  const [, pre, body, post] = m as unknown as [string, string, string, string];
  let items: string[] | null = null;
  const range = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  if (range) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    if (Math.abs(b - a) <= 64) {
      items = [];
      for (let i = a; a <= b ? i <= b : i >= b; i += a <= b ? 1 : -1) items.push(String(i));
    }
  } else if (body.includes(",")) items = body.split(",");
  if (!items) return [text];
  return items.flatMap((it) => expandBraces(pre + it + post, word)).slice(0, MAX_ALTERNATIVES);
}

/** Absolute, normalised path for an operand; null when the cwd is unknown and the path relative. */
export function toAbsolute(path: string, cwd: string | null): string | null {
  if (!path.startsWith("/") && cwd === null) return null;
  const n = normalizePath(path.startsWith("/") ? path : posix.join(cwd!, path));
  // Directory form (`link/`) makes the kernel follow a final symlink: keep it for the path policy.
  return n !== "/" && /\/\.?$/.test(path) ? n + "/" : n;
}

export function normalizePath(p: string): string {
  const n = posix.normalize(p);
  return n.length > 1 && n.endsWith("/") ? n.slice(0, -1) : n;
}

/** Expands a path operand's glob against the world; a glob matching nothing stays literal (bash default). */
export async function globPaths(arg: Arg, cwd: string | null, env: EnvView): Promise<string[] | null> {
  const abs = toAbsolute(arg.text, cwd);
  if (abs === null) return null;
  if (!arg.glob) return [abs];
  const matches = await env.glob(abs);
  return matches.length > 0 ? matches.map(normalizePath) : [abs];
}

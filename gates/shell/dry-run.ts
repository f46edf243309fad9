/**
 * Read-only dry runs that name the real targets of opaque deletions: `find ... -delete` (or
 * `-exec rm {}`) is re-run with the deleting action replaced by a listing action,
 * `rsync --delete` is re-run with `-n -i`, and an archive about to be extracted is listed
 * (`tar -t`, `unzip -Z1`), all inside the trial's sandbox with the world bound read-only
 * (EnvView.runGateProcess). Every function returns null when the listing cannot be
 * trusted (no sandbox, unknown or globbed words, side-effecting or order-dependent predicates,
 * an error, a timeout, too many entries, unparsable output); the caller then keeps the
 * directory-level effect.
 */
import { posix } from "node:path";
import type { EnvView } from "../types.ts";
import type { Arg } from "./expand.ts";
import { splitArgs } from "./options.ts";

/** More entries than this: name the directory instead (nobody can judge a longer list). */
export const DRY_RUN_MAX_PATHS = 200;
export const DRY_RUN_TIMEOUT_MS = 3000;

export interface DryRunEntry {
  /** Absolute sandbox path. */
  path: string;
  isDir: boolean;
}

// ---------------------------------------------------------------- find

/** Predicates whose outcome changes while find deletes (`-empty` cascades) or that follow links. */
const FIND_UNSTABLE = new Set(["-empty", "-links", "-L", "-follow", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls", "-D", "-O"]);
/** Output actions the listing replaces with `-true` (they always return true). */
const FIND_PRINTS: Record<string, number> = { "-print": 0, "-print0": 0, "-ls": 0, "-printf": 1 };
/** The listing action: type letter, space, path, NUL. */
const LIST_ACTION = ["-printf", "%y %p\\0"];

/** `rm` with flags only and a single `{}`: the payload deletes exactly the match. */
function isRmOfMatch(payload: readonly Arg[]): boolean {
  if (payload.length < 2 || posix.basename(payload[0]!.text) !== "rm") return false;
  const rest = payload.slice(1);
  return (
    rest.filter((a) => a.text === "{}").length === 1 &&
    rest.every((a) => a.text === "{}" || (/^-[a-zA-Z]+$|^--(recursive|force|verbose)$/.test(a.text) && a.text !== "--"))
  );
}

/**
 * The find argv that lists what `find <args>` would delete, or null when the expression does
 * anything but filter, print and delete (or when it would delete nothing).
 */
export function findListingArgv(args: readonly Arg[]): string[] | null {
  if (args.some((a) => a.unknown !== undefined || a.glob)) return null;
  const out: string[] = [];
  let i = 0;
  while (i < args.length && (args[i]!.text === "-H" || args[i]!.text === "-P")) out.push(args[i++]!.text);
  const roots: string[] = [];
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t.startsWith("-") || t === "(" || t === "!" || t === ")") break;
    roots.push(t);
  }
  if (roots.length === 0) roots.push(".");
  const expr: string[] = [];
  let deletes = false;
  let implicitDepth = false;
  for (let j = i; j < args.length; j++) {
    const t = args[j]!.text;
    if (FIND_UNSTABLE.has(t)) return null;
    if (t === "-delete") {
      deletes = implicitDepth = true;
      expr.push(...LIST_ACTION);
    } else if (t === "-exec" || t === "-execdir") {
      const end = args.findIndex((a, k) => k > j && (a.text === ";" || a.text === "+"));
      if (end < 0 || !isRmOfMatch(args.slice(j + 1, end))) return null;
      deletes = true;
      expr.push(...LIST_ACTION);
      j = end;
    } else if (t in FIND_PRINTS) {
      expr.push("-true");
      j += FIND_PRINTS[t]!;
    } else expr.push(t);
  }
  if (!deletes) return null;
  // -delete implies -depth, under which -prune does nothing: the listing must walk the same way.
  return [...out, ...roots, ...(implicitDepth ? ["-depth"] : []), ...expr];
}

/** What `find <args>` run in `cwd` would delete, or null (see the module comment). */
export async function listFindDeletions(env: EnvView, cwd: string | null, args: readonly Arg[]): Promise<DryRunEntry[] | null> {
  const argv = findListingArgv(args);
  if (argv === null || cwd === null || !env.runGateProcess) return null;
  const stdout = await runListing(env, ["/usr/bin/env", "-C", cwd, "/usr/bin/find", ...argv]);
  if (stdout === null) return null;
  if (stdout !== "" && !stdout.endsWith("\0")) return null;
  const records = stdout === "" ? [] : stdout.slice(0, -1).split("\0");
  if (records.length > DRY_RUN_MAX_PATHS) return null;
  const entries = new Map<string, DryRunEntry>();
  for (const r of records) {
    const m = /^([a-zA-Z?]) (.+)$/s.exec(r);
    if (!m) return null;
    const path = posix.resolve(cwd, m[2]!);
    entries.set(path, { path, isDir: m[1] === "d" });
  }
  return [...entries.values()];
}

// ---------------------------------------------------------------- rsync

/** rsync options the dry run cannot honour safely or whose output it cannot parse. */
const RSYNC_REFUSED = [
  "e",
  "rsh",
  "rsync-path",
  "log-file",
  "log-file-format",
  "write-batch",
  "only-write-batch",
  "read-batch",
  "daemon",
  "server",
  "sender",
  "8",
  "8-bit-output",
  "q",
  "quiet",
  "out-format",
  "log-format",
  "info",
  "msgs2stderr",
  "no-msgs2stderr",
  "config",
  "password-file",
  "connect-program",
  "address",
  "port",
  "sockopts",
  "outbuf",
  "stderr",
  "M",
  "remote-option",
  "files-from",
  "from0",
  "0",
  "iconv",
  "list-only",
];
export const RSYNC_VALUE_OPTIONS = [
  "e",
  "rsh",
  "exclude",
  "include",
  "filter",
  "f",
  "files-from",
  "exclude-from",
  "include-from",
  "backup-dir",
  "suffix",
  "chmod",
  "T",
  "temp-dir",
  "B",
  "block-size",
  "port",
  "log-file",
  "partial-dir",
  // The other options rsync(1) gives a value, so that their value is never read as an operand.
  "debug",
  "stderr",
  "checksum-choice",
  "cc",
  "confine-root",
  "zt",
  "rsync-path",
  "max-delete",
  "max-size",
  "min-size",
  "max-alloc",
  "usermap",
  "groupmap",
  "chown",
  "timeout",
  "contimeout",
  "modify-window",
  "@",
  "compare-dest",
  "copy-dest",
  "link-dest",
  "compress-choice",
  "zc",
  "compress-level",
  "zl",
  "compress-threads",
  "skip-compress",
  "copy-as",
  "address",
  "sockopts",
  "outbuf",
  "remote-option",
  "M",
  "out-format",
  "log-file-format",
  "password-file",
  "early-input",
  "bwlimit",
  "stop-after",
  "stop-at",
  "write-batch",
  "only-write-batch",
  "read-batch",
  "protocol",
  "iconv",
  "checksum-seed",
  "info",
];

export interface RsyncPlan {
  /** Entries rsync would delete under the destination. */
  deletions: DryRunEntry[];
  /** Entries rsync would create or change (content, link, or permissions/owner). */
  writes: (DryRunEntry & { existed: boolean })[];
}

/** What `rsync <args>` run in `cwd` would delete and write (local transfers only), or null. */
export async function planRsync(env: EnvView, cwd: string | null, args: readonly Arg[]): Promise<RsyncPlan | null> {
  if (cwd === null || !env.runGateProcess) return null;
  if (args.some((a) => a.unknown !== undefined || a.glob)) return null;
  const { flags, operands } = splitArgs(args, { withValue: RSYNC_VALUE_OPTIONS });
  if (RSYNC_REFUSED.some((f) => flags.has(f)) || [...flags].some((f) => f.startsWith("info"))) return null;
  if (operands.length < 2 || operands.some((o) => /^[^/]*:/.test(o.text))) return null;
  const dest = posix.resolve(cwd, operands.at(-1)!.text);
  const stdout = await runListing(env, ["/usr/bin/env", "-C", cwd, "/usr/bin/rsync", "--dry-run", "--itemize-changes", ...args.map((a) => a.text)]);
  if (stdout === null) return null;
  const plan: RsyncPlan = { deletions: [], writes: [] };
  for (const line of stdout.split("\n")) {
    // %i %n%L: an 11-character change code, a space, the name relative to the destination.
    if (line.startsWith("*deleting ")) {
      if (line.slice(9, 12) !== "   " || line.length <= 12) return null;
      const name = line.slice(12);
      if (name.includes("\\#")) return null; // rsync escapes odd bytes as \#ooo: not trusted
      plan.deletions.push({ path: under(dest, name), isDir: name.endsWith("/") });
      continue;
    }
    const code = line.slice(0, 11);
    if (!/^[<>ch.][fdLDS][.+?a-zA-Z]{9}$/.test(code) || line[11] !== " ") continue; // -v chatter, totals
    const raw = line.slice(12);
    if (raw === "" || raw.includes("\\#")) return null;
    const name = code[1] === "L" ? raw.replace(/ -> .*$/s, "") : raw;
    const attrs = code.slice(2);
    // Nothing transferred and only times touched: the entry keeps its data and mode.
    if (code[0] === "." && /^[.tTubn]*$/.test(attrs)) continue;
    plan.writes.push({ path: under(dest, name), isDir: code[1] === "d", existed: !attrs.startsWith("+++") });
  }
  if (plan.deletions.length + plan.writes.length > DRY_RUN_MAX_PATHS) return null;
  return plan;
}

export function rsyncDeletes(args: readonly Arg[]): boolean {
  const { flags } = splitArgs(args, { withValue: RSYNC_VALUE_OPTIONS });
  return [...flags].some((f) => f.startsWith("delete") || f === "del");
}

/** `name` (relative, maybe with a trailing slash) under `dest`, normalised. */
function under(dest: string, name: string): string {
  return posix.join(dest, name).replace(/(.)\/+$/, "$1");
}

// ---------------------------------------------------------------- archives

/**
 * The file names an archive holds, relative to where it is extracted, from `tar -t ... -f A` or
 * `unzip -Z1 A` run in `cwd`; null when the listing cannot be trusted (too many entries, names
 * that climb out or are absolute, a failure).
 */
export async function listArchive(env: EnvView, cwd: string | null, argv: readonly string[]): Promise<string[] | null> {
  if (cwd === null || !env.runGateProcess) return null;
  const tool = argv[0] === "tar" ? "/usr/bin/tar" : argv[0] === "unzip" ? "/usr/bin/unzip" : null;
  if (tool === null) return null;
  const stdout = await runListing(env, ["/usr/bin/env", "-C", cwd, tool, ...argv.slice(1)]);
  if (stdout === null) return null;
  const names = stdout.split("\n").filter((l) => l !== "" && !l.endsWith("/"));
  if (names.length > DRY_RUN_MAX_PATHS) return null;
  const out: string[] = [];
  for (const n of names) {
    const rel = n.replace(/^\.\//, "").replace(/^\/+/, "");
    if (rel.split("/").includes("..") || rel.includes("\\")) return null;
    out.push(rel);
  }
  return out;
}

// ---------------------------------------------------------------- runner

/** stdout of a successful listing, or null on a missing sandbox, a throw, a timeout or a failure. */
async function runListing(env: EnvView, argv: string[]): Promise<string | null> {
  if (!env.runGateProcess) return null;
  try {
    const r = await env.runGateProcess(argv, "", DRY_RUN_TIMEOUT_MS);
    if (r.timedOut || r.exitCode !== 0) return null;
    return r.stdout;
  } catch {
    return null;
  }
}

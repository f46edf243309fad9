/**
 * A world's lookups answered from its listing (harness/sandbox/world/gate-runner.ts), for the
 * corpus mode of `explain` and `history`: nothing runs there, so the world does not change, and a
 * listing taken once answers realpath, lstat, readlink, readdir, readFile and glob exactly as the
 * world's helper would (the same user, the same OS profile, the same path rules: relative paths
 * start at /workspace, `~` is /home/user, `..` is resolved as text first, links in the middle of a
 * path are followed as the kernel follows them). What the listing cannot answer for certain (a
 * path outside the world's roots, a folder it could not read, a file too large to keep, a link
 * leading out of the roots, a name with an escaped byte) goes to the world as before.
 */
import { posix } from "node:path";
import type { EnvView, GateProcessOutput, LstatInfo } from "../../../gates/types.ts";
import { expandBraces, globRegex } from "../../sandbox/world/inside/glob-pattern.cjs";
import type { GateRunner, IndexEntry, WorldListing } from "../../sandbox/world/gate-runner.ts";
import type { TrialWorld } from "../../sandbox/world/world.ts";
import { HOME, WORKSPACE } from "../../../kernel/sandbox-paths.ts";

/** The listing cannot answer: ask the world. */
export const ASK_WORLD = Symbol("ask the world");
type Answer<T> = T | typeof ASK_WORLD;

/** Where a path leads: an entry of the listing (at its path without links), nothing there, or unknown. */
type Resolved = { path: string; entry: IndexEntry } | null | typeof ASK_WORLD;

/** Links followed before the kernel gives up (ELOOP). */
const MAX_LINKS = 40;
const GLOB_CHARS = /[*?[]/;

/** The helper's request paths (inside/paths.cjs): `~` is HOME, relative paths start at /workspace, resolved as text. */
export function requestPath(p: unknown): Answer<string> {
  if (typeof p !== "string" || p === "") return ASK_WORLD; // the helper refuses it: let it
  // A name with an escaped byte (kernel/fs-names.ts), or a path too long for one call: the world decides.
  if (/[\ud800-\udfff]/.test(p) || p.length > 2048) return ASK_WORLD;
  if (p === "~") return HOME;
  if (p.startsWith("~/")) return posix.resolve(HOME, p.slice(2));
  return posix.resolve(WORKSPACE, p);
}

export class WorldIndex {
  private readonly entries: Map<string, IndexEntry>;
  private readonly names = new Map<string, Set<string>>();
  /** Roots whose path is their realpath, longest first. */
  private readonly roots: string[];

  constructor(listing: WorldListing) {
    this.entries = new Map(listing.entries);
    this.roots = listing.roots
      .filter((r) => r.real === r.path && this.entries.get(r.path)?.type === "dir")
      .map((r) => r.path)
      .sort((a, b) => b.length - a.length);
  }

  private rootOf(p: string): string | undefined {
    return this.roots.find((r) => p === r || p.startsWith(`${r}/`));
  }

  private namesOf(dir: string, e: IndexEntry): Set<string> | undefined {
    if (!e.names) return undefined;
    let s = this.names.get(dir);
    if (!s) {
      s = new Set(e.names);
      this.names.set(dir, s);
    }
    return s;
  }

  /**
   * Where absolute, normalised `p` leads, links in the middle followed (and the last one when
   * `followLast`), as the kernel resolves it; null when that fails (a missing name, a file in the
   * middle); ASK_WORLD when the listing cannot tell.
   */
  resolve(p: string, followLast: boolean): Resolved {
    const root = this.rootOf(p);
    if (root === undefined) return ASK_WORLD;
    let cur = root;
    const rest = p.slice(root.length).split("/").filter(Boolean);
    let links = 0;
    while (rest.length > 0) {
      const c = rest.shift()!;
      const last = rest.length === 0;
      if (c === ".") continue;
      if (c === "..") {
        const parent = posix.dirname(cur);
        if (this.rootOf(parent) === undefined) return ASK_WORLD;
        cur = parent;
        continue;
      }
      const dir = this.entries.get(cur);
      if (!dir || dir.type !== "dir") return ASK_WORLD;
      const names = this.namesOf(cur, dir);
      if (!names) return ASK_WORLD;
      if (!names.has(c)) return null;
      const childPath = `${cur}/${c}`;
      const child = this.entries.get(childPath);
      if (!child) return ASK_WORLD;
      if (child.type === "symlink" && (!last || followLast)) {
        if (++links > MAX_LINKS || typeof child.target !== "string" || child.target === "") return ASK_WORLD;
        const parts = child.target.split("/").filter(Boolean);
        if (child.target.startsWith("/")) {
          // An absolute target starts again at a root it names before any `..`.
          const lead = parts.slice(0, parts.includes("..") ? parts.indexOf("..") : parts.length);
          const r = this.roots.find((x) => {
            const xs = x.split("/").filter(Boolean);
            return xs.length <= lead.length && xs.every((s, i) => lead[i] === s);
          });
          if (r === undefined) return ASK_WORLD;
          cur = r;
          rest.unshift(...parts.slice(r.split("/").filter(Boolean).length));
        } else rest.unshift(...parts);
        continue;
      }
      if (!last && child.type !== "dir") return null; // ENOTDIR
      cur = childPath;
    }
    const entry = this.entries.get(cur);
    return entry ? { path: cur, entry } : ASK_WORLD;
  }

  lstat(p: unknown): Answer<LstatInfo | null> {
    const r = this.at(p, false);
    if (r === ASK_WORLD || r === null) return r;
    return { type: r.entry.type, size: r.entry.size, mode: r.entry.mode };
  }

  readlink(p: unknown): Answer<string | null> {
    const r = this.at(p, false);
    if (r === ASK_WORLD || r === null) return r;
    if (r.entry.type !== "symlink") return null;
    return typeof r.entry.target === "string" ? r.entry.target : ASK_WORLD;
  }

  realpath(p: unknown): Answer<string | null> {
    const r = this.at(p, true);
    if (r === ASK_WORLD || r === null) return r;
    return r.path;
  }

  readdir(p: unknown): Answer<string[] | null> {
    const r = this.at(p, false);
    if (r === ASK_WORLD || r === null) return r;
    if (r.entry.type !== "dir") return null;
    return r.entry.names ? [...r.entry.names] : ASK_WORLD;
  }

  readFile(p: unknown): Answer<string | null> {
    const r = this.at(p, false);
    if (r === ASK_WORLD || r === null) return r;
    // A link is not followed, a folder or a device is not a regular file: the helper answers null.
    if (r.entry.type !== "file") return null;
    return r.entry.text === undefined ? ASK_WORLD : r.entry.text;
  }

  /** Bash-like pathname expansion as the helper does it (inside/glob.cjs, bashGlob). */
  glob(pattern: unknown): Answer<string[]> {
    const abs = requestPath(pattern);
    if (abs === ASK_WORLD) return ASK_WORLD;
    const results = new Set<string>();
    for (const p of expandBraces(abs)) {
      const matches = this.globOne(p);
      if (matches === ASK_WORLD) return ASK_WORLD;
      for (const m of matches) results.add(m);
    }
    return [...results].sort();
  }

  private at(p: unknown, followLast: boolean): Resolved {
    const abs = requestPath(p);
    return abs === ASK_WORLD ? ASK_WORLD : this.resolve(abs, followLast);
  }

  /** A folder above a root (e.g. /home): a root is its own realpath, so each folder above it is one and can be passed. */
  private aboveRoot(p: string): boolean {
    return this.roots.some((r) => r !== p && (p === "/" || r.startsWith(`${p}/`)));
  }

  /** lstat succeeds (exists, the last link not followed). */
  private exists(p: string): Answer<boolean> {
    if (this.aboveRoot(p)) return true;
    const r = this.resolve(p, false);
    return r === ASK_WORLD ? r : r !== null;
  }

  /** stat succeeds and is a folder (links followed). */
  private isDir(p: string): Answer<boolean> {
    if (this.aboveRoot(p)) return true;
    const r = this.resolve(p, true);
    return r === ASK_WORLD ? r : r !== null && r.entry.type === "dir";
  }

  private globOne(pattern: string): Answer<string[]> {
    if (/[\ud800-\udfff]/.test(pattern)) return ASK_WORLD;
    const segments = pattern.split("/").filter((s) => s !== "");
    let current = ["/"];
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i]!;
      const last = i === segments.length - 1;
      const next: string[] = [];
      if (!GLOB_CHARS.test(seg)) {
        const lit = seg.replace(/\\(.)/g, "$1");
        for (const base of current) {
          const p = posix.join(base, lit);
          const ok = last ? this.exists(p) : this.isDir(p);
          if (ok === ASK_WORLD) return ASK_WORLD;
          if (ok) next.push(p);
        }
      } else {
        const re = globRegex(seg);
        const allowDot = seg.startsWith(".");
        for (const base of current) {
          // readdir follows links, and fails (nothing matched) on a missing path or a file.
          const r = this.resolve(base, true);
          if (r === ASK_WORLD) return ASK_WORLD;
          if (r === null || r.entry.type !== "dir") continue;
          if (!r.entry.names) return ASK_WORLD;
          for (const n of [...r.entry.names].sort()) {
            if (n.startsWith(".") && !allowDot) continue;
            if (!re.test(n)) continue;
            const p = posix.join(base, n);
            if (last) next.push(p);
            else {
              const ok = this.isDir(p);
              if (ok === ASK_WORLD) return ASK_WORLD;
              if (ok) next.push(p);
            }
          }
        }
      }
      current = next;
      if (current.length === 0) break;
    }
    return segments.length === 0 ? ["/"] : current;
  }
}

/**
 * The world's EnvView with its lookups answered from `index` where it can (the rest asked of
 * `env`), and the one-shot listings of the shell analysis's dry runs run by `run` (a shared
 * read-only sandbox, World.startGateRunner) when given. Anything else (a hook, an extension, a
 * process with binds or input) goes to `env`, each in a sandbox of its own as before.
 */
export function indexedEnv(
  env: EnvView,
  index: WorldIndex | undefined,
  run?: (argv: readonly string[], stdin: string, timeoutMs: number) => Promise<GateProcessOutput | undefined>,
): EnvView {
  const answer =
    <T>(ask: (p: string) => Promise<T>, local: (p: unknown) => Answer<T>) =>
    (p: string): Promise<T> => {
      const a = index ? local.call(index, p) : ASK_WORLD;
      return a === ASK_WORLD ? ask.call(env, p) : Promise.resolve(a);
    };
  const own = env.runGateProcess?.bind(env);
  return {
    get cwd() {
      return env.cwd;
    },
    get home() {
      return env.home;
    },
    realpath: answer(env.realpath, (p) => index!.realpath(p)),
    lstat: answer(env.lstat, (p) => index!.lstat(p)),
    readlink: answer(env.readlink, (p) => index!.readlink(p)),
    glob: answer(env.glob, (p) => index!.glob(p)),
    readFile: answer(env.readFile, (p) => index!.readFile(p)),
    readdir: answer(env.readdir, (p) => index!.readdir(p)),
    ...(own
      ? {
          runGateProcess: async (argv, stdin, timeoutMs, binds, opts) => {
            if (run && isWorldListing(argv, stdin, binds, opts)) {
              const out = await run(argv, stdin, timeoutMs);
              if (out) return out;
            }
            return own(argv, stdin, timeoutMs, binds, opts);
          },
        }
      : {}),
  };
}

/** The system programs a dry run lists the world with (gates/shell/dry-run.ts). */
const LISTING_PROGRAMS = new Set(["/usr/bin/find", "/usr/bin/rsync", "/usr/bin/tar", "/usr/bin/unzip"]);

/**
 * A dry run's listing: `/usr/bin/env -C <dir> <a system listing program> ...`, one-shot, with no
 * input and no files bound. A hook always gets its input on stdin, an extension binds its files or
 * lives on: neither is one, so neither ever shares a sandbox.
 */
export function isWorldListing(
  argv: readonly string[],
  stdin: string,
  binds: readonly unknown[] | undefined,
  opts: { persistent?: boolean } | undefined,
): boolean {
  return (
    stdin === "" &&
    (binds === undefined || binds.length === 0) &&
    opts?.persistent !== true &&
    argv.length >= 4 &&
    argv[0] === "/usr/bin/env" &&
    argv[1] === "-C" &&
    LISTING_PROGRAMS.has(argv[3]!)
  );
}

/** A world set up once for many decisions: its EnvView over the listing and the shared runner. */
export interface SharedWorld {
  env: EnvView;
  /** Whether the listing answers lookups (false: the world was too large to list, or the runner failed). */
  indexed: boolean;
  close(): void;
}

/**
 * Set `world` up once for deciding many calls on it without running any: one read-only sandbox
 * for the dry runs' listings, and the world listed once there for the lookups. What they cannot
 * answer is asked of `env` (the world's own view); a world whose runner does not start is used as
 * before (every lookup and process asked of `env`).
 */
export async function shareWorld(world: TrialWorld, env: EnvView = world.env): Promise<SharedWorld> {
  let runner: GateRunner;
  try {
    runner = await world.startGateRunner();
  } catch {
    return { env, indexed: false, close: () => {} };
  }
  const listing = await runner.listing(world.roots);
  const index = listing ? new WorldIndex(listing) : undefined;
  const run = (argv: readonly string[], stdin: string, timeoutMs: number) => (runner.alive ? runner.run(argv, stdin, timeoutMs) : Promise.resolve(undefined));
  return { env: indexedEnv(env, index, run), indexed: index !== undefined, close: () => runner.close() };
}

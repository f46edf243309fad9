/**
 * Reading files the harness is handed (task folders, shard folders, cassettes, session files)
 * without the harness's rights leaking through them. The harness runs as root; a folder it is
 * given is the work of whoever wrote it (a task author, a pull request, a shared recording), so:
 *
 * - a link is followed only when where it leads, resolved, lies inside the folder it belongs to
 *   (a `tests/` link to a private host file is refused, never read);
 * - a link that loops (`tests/loop -> .`, or two links naming each other) is refused;
 * - only regular files and folders are read: a FIFO, socket or device is refused without ever
 *   being opened for reading (a FIFO would block the reader forever);
 * - a walk visits at most `MAX_TREE_ENTRIES` paths, and a file read has a size limit.
 *
 * Every refusal is an InputError naming the path, what it is and the folder it had to stay in.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { InputError } from "../../../kernel/errors.ts";
import { displayPath } from "../../../kernel/yaml.ts";

/** At most this many paths in one walk (links inside a folder can otherwise fan a small tree out exponentially). */
export const MAX_TREE_ENTRIES = 100_000;

/** The folder a tree must stay inside, and what to call it in messages ("the task folder"). */
export interface Within {
  root: string;
  what: string;
  /** At most this many paths in a walk (default MAX_TREE_ENTRIES). */
  maxEntries?: number;
}

/** One path of a walk: as named inside the tree (`path`, `rel`) and where it really is (`real`, no links). */
export interface TreeEntry {
  path: string;
  rel: string;
  real: string;
  kind: "file" | "dir";
  mode: number;
  size: number;
}

/** "a FIFO", "a socket", ... for what is neither a regular file nor a folder. */
export function kindOf(st: Stats): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSymbolicLink()) return "a link";
  if (st.isDirectory()) return "a folder";
  return "a regular file";
}

/** Whether `p` is `root` or lies under it (both absolute and free of links). */
export function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !path.isAbsolute(rel));
}

function describe(w: Within): string {
  return `${w.what} ${displayPath(w.root) || "."}`;
}

function notRegular(p: string, st: Stats, w: Within | undefined): InputError {
  return new InputError(displayPath(p), "(file)", `a regular file or folder${w ? ` of ${describe(w)}` : ""} (it is ${kindOf(st)}, which is never read)`);
}

/** The real folder of a `Within` (itself resolved: a root given through a link is where it leads). */
function realRoot(w: Within): string {
  try {
    return realpathSync.native(w.root);
  } catch (e) {
    throw new InputError(displayPath(w.root), "(folder)", `an existing folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Where `p` really is, refusing a link that loops, dangles or leaves `rootReal`; `shown` is its name in messages. */
function resolveInside(at: string, rootReal: string, w: Within, shown = at): string {
  const p = shown;
  let real: string;
  try {
    real = realpathSync.native(at);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new InputError(displayPath(p), "(link)", `a link that does not loop (inside ${describe(w)})`);
    if (code === "ENOENT") {
      let target = "";
      try {
        target = readlinkSync(at);
      } catch {
        // not a link: the file itself is gone
      }
      throw new InputError(
        displayPath(p),
        target ? "(link)" : "(file)",
        target ? `a link to a file of ${describe(w)} (it leads to ${target}, which does not exist)` : "an existing file",
      );
    }
    throw new InputError(displayPath(p), "(file)", `a readable file of ${describe(w)} (${code ?? (e as Error).message})`);
  }
  if (!isInside(real, rootReal))
    throw new InputError(displayPath(p), "(link)", `a path inside ${describe(w)} (it leads to ${real}, outside it; links out of it are not followed)`);
  return real;
}

/**
 * Visit every file and folder under `start` (itself included), following links only inside
 * `w.root`; a link that leaves it or loops, and anything but a regular file or a folder, is an
 * InputError. Folders come before what they hold, names in sorted order.
 */
export function walkWithin(start: string, w: Within, visit: (e: TreeEntry) => void): void {
  const rootReal = realRoot(w);
  const max = w.maxEntries ?? MAX_TREE_ENTRIES;
  let count = 0;
  // `at`: where the entry is when its folder is taken as resolved (its real folder joined with its name)
  const rec = (p: string, at: string, rel: string, ancestors: readonly string[]) => {
    if (++count > max) throw new InputError(displayPath(start), "(folder)", `at most ${max} files and folders (counting every path its links lead to)`);
    const l = lstatSync(at, { throwIfNoEntry: false });
    // Only a link (or the start) needs resolving; anything else is where its resolved folder is.
    const real = !l || l.isSymbolicLink() || ancestors.length === 0 ? resolveInside(at, rootReal, w, p) : at;
    const st = real === at && l ? l : statSync(real);
    if (st.isDirectory()) {
      if (ancestors.includes(real))
        throw new InputError(displayPath(p), "(link)", `a link that does not loop (it leads back to ${displayPath(real) || "."}, a folder it is in)`);
      visit({ path: p, rel, real, kind: "dir", mode: st.mode, size: 0 });
      const next = [...ancestors, real];
      for (const name of readdirSync(real).sort()) rec(path.join(p, name), path.join(real, name), rel ? `${rel}/${name}` : name, next);
    } else if (st.isFile()) visit({ path: p, rel, real, kind: "file", mode: st.mode, size: st.size });
    else throw notRegular(p, st, w);
  };
  rec(start, start, "", []);
}

/** Check a whole tree (see walkWithin): the first problem is thrown. */
export function checkTree(start: string, w: Within): void {
  walkWithin(start, w, () => {});
}

/**
 * The bytes of a regular file, opened without blocking and (unless `follow`, for a file the user
 * named) without following a final link: anything else (a FIFO, a device) is refused before a
 * byte is read. `shown` names it in errors.
 */
export function readRegularFile(file: string, opts: { maxBytes?: number; shown?: string; within?: Within; follow?: boolean } = {}): Buffer {
  const shown = opts.shown ?? displayPath(file);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (opts.follow ? 0 : constants.O_NOFOLLOW));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP") {
      // O_NOFOLLOW on a link: the caller resolves links (readFileWithin); a bare read never follows one.
      throw new InputError(shown, "(file)", "a regular file, not a link");
    }
    // A socket cannot be opened at all (ENXIO): say what it is.
    const st = opts.follow ? statSync(file, { throwIfNoEntry: false }) : lstatSync(file, { throwIfNoEntry: false });
    if (st && !st.isFile()) throw notRegular(file, st, opts.within);
    throw new InputError(shown, "(file)", `a readable file (${code ?? (e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(file, st, opts.within);
    if (opts.maxBytes !== undefined && st.size > opts.maxBytes) throw new InputError(shown, "(size)", `at most ${opts.maxBytes} bytes (it has ${st.size})`);
    const bytes = readFileSync(fd);
    if (opts.maxBytes !== undefined && bytes.length > opts.maxBytes)
      throw new InputError(shown, "(size)", `at most ${opts.maxBytes} bytes (it grew while read)`);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** A file of a folder: links followed only inside `w.root`, only a regular file read (see readRegularFile). */
export function readFileWithin(file: string, w: Within, maxBytes?: number): Buffer {
  const real = resolveInside(file, realRoot(w), w);
  return readRegularFile(real, { shown: displayPath(file), within: w, ...(maxBytes !== undefined ? { maxBytes } : {}) });
}

/** Whether `p` exists as anything, a dangling link included (existsSync follows links). */
export function present(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copy `src` (a file or folder) to `dst` as plain files and folders: links inside `w.root` are
 * copied as what they lead to, everything else refused (walkWithin). Files keep their owner's
 * execute bit as 0755, else 0644; folders are 0755.
 */
export function copyWithin(src: string, dst: string, w: Within): void {
  const entries: TreeEntry[] = [];
  walkWithin(src, w, (e) => entries.push(e));
  for (const e of entries) {
    const to = e.rel ? path.join(dst, e.rel) : dst;
    if (e.kind === "dir") mkdirSync(to, { mode: 0o755 });
    else writeFileSync(to, readRegularFile(e.real, { shown: displayPath(e.path), within: w }), { mode: e.mode & 0o100 ? 0o755 : 0o644, flag: "wx" });
  }
}

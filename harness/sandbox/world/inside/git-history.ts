/**
 * Git history as the measurer sees it: which commits and annotated tags of a world can still be
 * reached from a ref, a reflog entry, a stash entry or a HEAD, in any repository of the world.
 * A commit reachable after setup and not at the end of a trial is lost history, whatever the
 * task authorises about the files under `.git` (harness/model/effects/wrongful.ts).
 *
 * It reads git's files itself and runs nothing: loose objects (zlib), pack files through their
 * v2 indexes (with OFS_DELTA and REF_DELTA chains), loose and packed refs, reflogs, worktree
 * HEADs, alternates inside the world; sha1 and sha256 repositories. Every object read is checked
 * against its id (the hash of its content), so a forged object file proves nothing. Replace refs
 * and grafts are not applied: history is what the objects say. What it cannot read (reftable ref
 * storage, more than MAX_COMMITS commits, an object larger than MAX_OBJECT_BYTES) makes the
 * repository "unmeasured", never "nothing lost".
 *
 * The answer is a set of virtual snapshot entries beside the files' (docs/trial.md, "Git history"):
 *   git:commit:<oid>               a reachable commit (type git-commit)
 *   git:tag:<oid>                  a reachable annotated tag (type git-tag)
 *   git:ref:<git dir>:<ref>        a branch, tag, other ref, stash entry (refs/stash@<oid>) or a
 *                                  detached HEAD, pointing at `hash` (type git-ref)
 *   git:unmeasured:<git dir>       a repository that could not be read; `target` says why,
 *                                  `hash` identifies the state of its files (type git-unmeasured)
 *   git:stash:<git dir>:<oid>      a stash entry's own extra commits (its index and untracked
 *                                  files), in `target` (type git-stash)
 *   git:stash-file:<git dir>:<oid>:<path>
 *                                  what the stash changed in the worktree: the file at <path>
 *                                  with the content whose sha256 is `hash`, a link to `target`,
 *                                  or `hash` "absent" for a file the stash removed (type
 *                                  git-stash-file). A stash entry that went while its changes
 *                                  are in the worktree was applied (`git stash pop`), not lost.
 */
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { constants as zlibConstants, inflateSync } from "node:zlib";

/** What the walk needs of the file system (paths as the measurer walks them). */
export interface GitFiles {
  readFile(p: string): Promise<Buffer>;
  open(p: string): Promise<FileHandle>;
}

/** The entry of one path of the world as the snapshot has it (only what this module reads). */
export interface KnownEntry {
  type: string;
  size: number;
  hash?: string;
  ino?: number;
  mtimeNs?: string;
}

export interface GitEntry {
  type: "git-commit" | "git-tag" | "git-ref" | "git-unmeasured" | "git-stash" | "git-stash-file";
  size: 0;
  mode: 0;
  hash?: string;
  target?: string;
}

export const GIT_KEY_PREFIX = "git:";
/** Beyond this many reachable commits in one world, its history is not measured. */
export const MAX_COMMITS = 200_000;
/** A commit or tag object larger than this is not read. */
export const MAX_OBJECT_BYTES = 16 * 1024 * 1024;
/** A ref, reflog, config or index file larger than this is not read. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** A stash whose changes hold more files or bytes than this is not described (dropped, it counts as lost). */
export const MAX_STASH_FILES = 2_000;
export const MAX_STASH_BYTES = 64 * 1024 * 1024;
/** Delta chains longer than this are not followed (git's own default is 50). */
const MAX_DELTA_DEPTH = 4096;

const OBJ_COMMIT = 1;
const OBJ_TREE = 2;
const OBJ_BLOB = 3;
const OBJ_TAG = 4;
const OBJ_OFS_DELTA = 6;
const OBJ_REF_DELTA = 7;
const TYPE_NAMES: Record<number, string> = { [OBJ_COMMIT]: "commit", [OBJ_TREE]: "tree", [OBJ_BLOB]: "blob", [OBJ_TAG]: "tag" };

class Unmeasurable extends Error {}

/** A parsed commit or tag, by its verified id (content-addressed: valid for every world). */
type Parsed = { kind: "commit"; parents: string[] } | { kind: "tag"; target: string } | { kind: "other" };
const parsedCache = new Map<string, Parsed>();
const PARSED_CACHE_MAX = 500_000;

/** A pack index, by the identity of its file. */
interface PackIndex {
  oids: Buffer;
  offsets: number[];
  count: number;
  oidLen: number;
}
const indexCache = new Map<string, PackIndex>();
const INDEX_CACHE_MAX = 256;

/** The git directories among `entries`: a folder holding a HEAD file and objects/ and refs/ folders. */
export function gitDirsOf(entries: ReadonlyMap<string, KnownEntry>): string[] {
  const dirs: string[] = [];
  for (const [p, e] of entries) {
    if (!p.endsWith("/HEAD") || (e.type !== "file" && e.type !== "symlink")) continue;
    const d = p.slice(0, -"/HEAD".length);
    if (entries.get(`${d}/objects`)?.type === "dir" && entries.get(`${d}/refs`)?.type === "dir") dirs.push(d);
  }
  return dirs.sort();
}

/** A digest of everything under the git dirs that history depends on (not the index): equal digests, equal history. */
export function historyFingerprint(entries: ReadonlyMap<string, KnownEntry>, dirs: readonly string[]): string {
  const h = createHash("sha256");
  for (const d of dirs) {
    h.update(`${d}\0`);
    for (const [p, e] of entries) {
      if (!p.startsWith(`${d}/`)) continue;
      const rel = p.slice(d.length + 1);
      if (rel === "index" || rel.startsWith("hooks/") || rel.endsWith(".lock")) continue;
      h.update(`${rel}\0${e.type}\0${e.size}\0${e.hash ?? ""}\0${e.ino ?? ""}\0${e.mtimeNs ?? ""}\n`);
    }
  }
  return h.digest("hex");
}

interface Repo {
  dir: string;
  oidLen: number;
  /** Object folders: its own, then alternates inside the world. */
  objectDirs: string[];
}

/**
 * The virtual entries of the world's history. `entries` are the world's files by the path the
 * measurer reads them at; `show` names a path as the agent sees it (keys use those names);
 * `real` maps a path as the agent sees it (in an alternates file) to where the measurer reads it,
 * or undefined outside the world.
 */
export async function gitHistoryEntries(
  entries: ReadonlyMap<string, KnownEntry>,
  files: GitFiles,
  show: (p: string) => string,
  real: (shown: string) => string | undefined,
): Promise<Map<string, GitEntry>> {
  const out = new Map<string, GitEntry>();
  const dirs = gitDirsOf(entries);
  if (dirs.length === 0) return out;
  files = capped(files, entries);
  const reached = new Set<string>();
  const work = { commits: 0 };
  const unmeasured = (d: string, why: string) =>
    out.set(`${GIT_KEY_PREFIX}unmeasured:${show(d)}`, { type: "git-unmeasured", size: 0, mode: 0, hash: historyFingerprint(entries, [d]), target: why });
  for (const d of dirs) {
    try {
      const repo = await openRepo(d, entries, files, real);
      const { tips, refs } = await readRefs(repo, entries, files);
      for (const [name, oid] of refs) out.set(`${GIT_KEY_PREFIX}ref:${show(d)}:${name}`, { type: "git-ref", size: 0, mode: 0, hash: oid });
      for (const oid of tips) await walkFrom(repo, oid, entries, files, reached, out, work);
      // A repository's worktree is the folder holding its .git; a bare repository has none.
      if (d.endsWith("/.git")) {
        const worktree = show(d.slice(0, -"/.git".length));
        for (const name of refs.keys()) {
          if (!name.startsWith("refs/stash@")) continue;
          const oid = name.slice("refs/stash@".length);
          const payload = await stashPayload(repo, oid, entries, files).catch(() => undefined);
          if (!payload) continue;
          out.set(`${GIT_KEY_PREFIX}stash:${show(d)}:${oid}`, { type: "git-stash", size: 0, mode: 0, target: payload.commits.join(" ") });
          for (const [rel, f] of payload.files)
            out.set(`${GIT_KEY_PREFIX}stash-file:${show(d)}:${oid}:${worktree}/${rel}`, { type: "git-stash-file", size: 0, mode: 0, ...f });
        }
      }
    } catch (e) {
      if (e instanceof Unmeasurable) unmeasured(d, e.message);
      else unmeasured(d, `cannot read the repository: ${(e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? e}`);
    }
  }
  return out;
}

/** `files` with every read of a whole file refused past MAX_FILE_BYTES (a reflog of gigabytes is not history we can read). */
function capped(files: GitFiles, entries: ReadonlyMap<string, KnownEntry>): GitFiles {
  return {
    open: files.open,
    readFile: async (p) => {
      const size = entries.get(p)?.size ?? 0;
      if (size > MAX_FILE_BYTES) throw new Unmeasurable(`${path.posix.basename(p)} has ${size} bytes (more than ${MAX_FILE_BYTES})`);
      return files.readFile(p);
    },
  };
}

async function openRepo(d: string, entries: ReadonlyMap<string, KnownEntry>, files: GitFiles, real: (shown: string) => string | undefined): Promise<Repo> {
  if (entries.get(`${d}/reftable`)?.type === "dir") throw new Unmeasurable("its refs are in reftable format, which is not read");
  let oidLen = 40;
  if (entries.get(`${d}/config`)?.type === "file") {
    const config = (await files.readFile(`${d}/config`)).toString("utf8");
    const format = /^\s*objectformat\s*=\s*(\S+)/im.exec(config)?.[1]?.toLowerCase();
    if (format === "sha256") oidLen = 64;
    else if (format && format !== "sha1") throw new Unmeasurable(`its object format ${format} is not read`);
    const refStorage = /^\s*refstorage\s*=\s*(\S+)/im.exec(config)?.[1]?.toLowerCase();
    if (refStorage && refStorage !== "files") throw new Unmeasurable(`its ref storage ${refStorage} is not read`);
  }
  const objectDirs = [`${d}/objects`];
  const alternates = `${d}/objects/info/alternates`;
  if (entries.get(alternates)?.type === "file") {
    for (const line of (await files.readFile(alternates)).toString("utf8").split("\n")) {
      const a = line.trim();
      if (!a || a.startsWith("#")) continue;
      const shown = path.posix.isAbsolute(a) ? a : undefined;
      const at = shown ? real(path.posix.normalize(shown)) : path.posix.normalize(path.posix.join(`${d}/objects`, a));
      if (at && entries.get(at)?.type === "dir") objectDirs.push(at);
    }
  }
  return { dir: d, oidLen, objectDirs };
}

const isOid = (s: string, len: number) => s.length === len && /^[0-9a-f]+$/.test(s);

/** Every tip of history in the repository (refs, reflog entries, HEADs) and the refs that count as the user's. */
async function readRefs(repo: Repo, entries: ReadonlyMap<string, KnownEntry>, files: GitFiles): Promise<{ tips: string[]; refs: Map<string, string> }> {
  const d = repo.dir;
  const len = repo.oidLen;
  const tips = new Set<string>();
  const refs = new Map<string, string>();
  const zero = "0".repeat(len);
  const addTip = (oid: string | undefined) => {
    if (oid && isOid(oid, len) && oid !== zero) tips.add(oid);
  };
  // packed-refs first: a loose ref of the same name wins.
  if (entries.get(`${d}/packed-refs`)?.type === "file") {
    for (const line of (await files.readFile(`${d}/packed-refs`)).toString("utf8").split("\n")) {
      if (line.startsWith("#") || !line.trim()) continue;
      if (line.startsWith("^")) {
        addTip(line.slice(1).trim());
        continue;
      }
      const [oid, name] = line.trim().split(/\s+/);
      if (oid && name && isOid(oid, len)) {
        refs.set(name, oid);
        addTip(oid);
      }
    }
  }
  const readRefFile = async (p: string): Promise<string | undefined> => {
    const text = (await files.readFile(p)).toString("utf8").trim();
    return isOid(text, len) ? text : undefined; // a symbolic ref ("ref: ...") names another ref, read on its own
  };
  for (const [p, e] of entries) {
    if (e.type !== "file" || !p.startsWith(`${d}/refs/`) || p.endsWith(".lock")) continue;
    const oid = await readRefFile(p);
    if (!oid) continue;
    refs.set(p.slice(d.length + 1), oid);
    addTip(oid);
  }
  const heads: [string, string][] = [[`${d}/HEAD`, "HEAD"]];
  for (const [p, e] of entries) {
    const m = e.type === "file" ? new RegExp(`^${escapeRegex(d)}/worktrees/([^/]+)/HEAD$`).exec(p) : null;
    if (m) heads.push([p, `worktrees/${m[1]}/HEAD`]);
  }
  for (const [p, name] of heads) {
    if (entries.get(p)?.type !== "file") continue;
    const oid = await readRefFile(p);
    if (oid) {
      refs.set(name, oid); // a detached HEAD is the user's too
      addTip(oid);
    }
  }
  // Reflogs (of HEAD, branches, the stash, worktrees): both sides of every entry stay recoverable.
  for (const [p, e] of entries) {
    if (e.type !== "file") continue;
    const rel = p.startsWith(`${d}/`) ? p.slice(d.length + 1) : undefined;
    if (!rel || !(rel.startsWith("logs/") || /^worktrees\/[^/]+\/logs\//.test(rel))) continue;
    const stash = rel === "logs/refs/stash";
    for (const line of (await files.readFile(p)).toString("utf8").split("\n")) {
      const [oldOid, newOid] = line.split(" ", 2);
      addTip(oldOid);
      addTip(newOid);
      if (stash && newOid && isOid(newOid, len) && newOid !== zero) refs.set(`refs/stash@${newOid}`, newOid);
    }
  }
  // The stash is counted by its entries (refs/stash@<oid>); without a reflog, by its ref.
  if ([...refs.keys()].some((k) => k.startsWith("refs/stash@"))) refs.delete("refs/stash");
  return { tips: [...tips].sort(), refs };
}

interface TreeEntry {
  mode: string;
  oid: string;
}

/** A tree object's entries by name. */
function parseTree(body: Buffer, oidLen: number): Map<string, TreeEntry> {
  const out = new Map<string, TreeEntry>();
  const bytes = oidLen / 2;
  let i = 0;
  while (i < body.length) {
    const sp = body.indexOf(0x20, i);
    const nul = body.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 1 + bytes > body.length) throw new Error("a malformed tree");
    out.set(body.toString("utf8", sp + 1, nul), { mode: body.toString("latin1", i, sp), oid: body.toString("hex", nul + 1, nul + 1 + bytes) });
    i = nul + 1 + bytes;
  }
  return out;
}

/**
 * What the stash entry `oid` changed in its worktree: every file whose content differs from the
 * commit it was made on (or is gone from it), and every untracked file it holds, with the
 * sha256 of the content (or a link's target); with its own extra commits (index, untracked).
 * Undefined when it cannot be read whole (MAX_STASH_FILES, MAX_STASH_BYTES).
 */
async function stashPayload(
  repo: Repo,
  oid: string,
  entries: ReadonlyMap<string, KnownEntry>,
  files: GitFiles,
): Promise<{ commits: string[]; files: Map<string, { hash?: string; target?: string }> } | undefined> {
  const read = async (id: string, type: number) => {
    const o = await readObject(repo, id, entries, files, true);
    return o && o.type === type ? o.body : undefined;
  };
  const headerOf = async (id: string) => {
    const body = await read(id, OBJ_COMMIT);
    if (!body) return undefined;
    const head = body.toString("latin1", 0, body.indexOf("\n\n") >= 0 ? body.indexOf("\n\n") : body.length);
    const tree = /^tree ([0-9a-f]+)$/m.exec(head)?.[1];
    const parents = [...head.matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]!);
    return tree ? { tree, parents } : undefined;
  };
  const stash = await headerOf(oid);
  const base = stash?.parents[0] ? await headerOf(stash.parents[0]) : undefined;
  if (!stash || !base) return undefined;
  const changed = new Map<string, { hash?: string; target?: string }>();
  let bytes = 0;
  const describe = async (rel: string, e: TreeEntry | undefined): Promise<boolean> => {
    if (changed.size >= MAX_STASH_FILES) return false;
    if (!e) {
      changed.set(rel, { hash: "absent" });
      return true;
    }
    if (e.mode === "160000") return true; // a submodule: not the worktree's files
    const blob = await read(e.oid, OBJ_BLOB);
    if (!blob) return false;
    bytes += blob.length;
    if (bytes > MAX_STASH_BYTES) return false;
    changed.set(rel, e.mode === "120000" ? { target: blob.toString("utf8") } : { hash: createHash("sha256").update(blob).digest("hex") });
    return true;
  };
  /** Every path under two trees whose entries differ (`before` undefined: everything in `after`). */
  const diff = async (before: string | undefined, after: string | undefined, prefix: string): Promise<boolean> => {
    const b = before ? await read(before, OBJ_TREE) : Buffer.alloc(0);
    const a = after ? await read(after, OBJ_TREE) : Buffer.alloc(0);
    if (!b || !a) return false;
    const bt = parseTree(b, repo.oidLen);
    const at = parseTree(a, repo.oidLen);
    for (const name of new Set([...bt.keys(), ...at.keys()])) {
      const x = bt.get(name);
      const y = at.get(name);
      if (x?.oid === y?.oid && x?.mode === y?.mode) continue;
      const rel = prefix ? `${prefix}/${name}` : name;
      const xTree = x?.mode === "40000";
      const yTree = y?.mode === "40000";
      if (xTree || yTree) {
        if (!(await diff(xTree ? x!.oid : undefined, yTree ? y!.oid : undefined, rel))) return false;
        if (x && !xTree && !yTree) continue;
        if (!xTree && x && yTree && !(await describe(rel, undefined))) return false;
        if (xTree && y && !yTree && !(await describe(rel, y))) return false;
        continue;
      }
      if (!(await describe(rel, y))) return false;
    }
    return true;
  };
  if (!(await diff(base.tree, stash.tree, ""))) return undefined;
  const untracked = stash.parents[2] ? await headerOf(stash.parents[2]) : undefined;
  if (stash.parents[2] && (!untracked || !(await diff(undefined, untracked.tree, "")))) return undefined;
  return { commits: stash.parents.slice(1), files: changed };
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Marks every commit and tag reachable from `oid` in `repo` (through parents and tag targets). */
async function walkFrom(
  repo: Repo,
  oid: string,
  entries: ReadonlyMap<string, KnownEntry>,
  files: GitFiles,
  reached: Set<string>,
  out: Map<string, GitEntry>,
  work: { commits: number },
): Promise<void> {
  const stack = [oid];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (reached.has(id)) continue;
    const obj = await parsedObject(repo, id, entries, files);
    if (!obj || obj.kind === "other") continue;
    reached.add(id);
    if (obj.kind === "commit") {
      if (++work.commits > MAX_COMMITS) throw new Unmeasurable(`more than ${MAX_COMMITS} commits`);
      out.set(`${GIT_KEY_PREFIX}commit:${id}`, { type: "git-commit", size: 0, mode: 0 });
      for (const p of obj.parents) if (!reached.has(p)) stack.push(p);
    } else {
      out.set(`${GIT_KEY_PREFIX}tag:${id}`, { type: "git-tag", size: 0, mode: 0, hash: obj.target });
      if (!reached.has(obj.target)) stack.push(obj.target);
    }
  }
}

/** The object `oid` parsed, from the cache or the repository; undefined when it is not there (or not what its id says). */
async function parsedObject(repo: Repo, oid: string, entries: ReadonlyMap<string, KnownEntry>, files: GitFiles): Promise<Parsed | undefined> {
  const cached = parsedCache.get(oid);
  if (cached) return cached;
  const raw = await readObject(repo, oid, entries, files);
  if (!raw) return undefined;
  const parsed = parse(raw.type, raw.body, repo.oidLen);
  if (parsedCache.size >= PARSED_CACHE_MAX) parsedCache.clear();
  parsedCache.set(oid, parsed);
  return parsed;
}

function parse(type: number, body: Buffer, len: number): Parsed {
  if (type !== OBJ_COMMIT && type !== OBJ_TAG) return { kind: "other" };
  const head = body.toString("latin1", 0, Math.min(body.length, body.indexOf("\n\n") >= 0 ? body.indexOf("\n\n") : body.length));
  if (type === OBJ_COMMIT) {
    const parents: string[] = [];
    for (const line of head.split("\n")) {
      if (line.startsWith("parent ")) {
        const p = line.slice(7).trim();
        if (isOid(p, len)) parents.push(p);
      }
    }
    return { kind: "commit", parents };
  }
  const target = /^object ([0-9a-f]+)$/m.exec(head)?.[1];
  return target && isOid(target, len) ? { kind: "tag", target } : { kind: "other" };
}

/** Type and content of `oid` (loose first, then packs), verified against the id; undefined when absent or corrupt. */
async function readObject(
  repo: Repo,
  oid: string,
  entries: ReadonlyMap<string, KnownEntry>,
  files: GitFiles,
  whole = false,
): Promise<{ type: number; body: Buffer } | undefined> {
  for (const objects of repo.objectDirs) {
    const loose = `${objects}/${oid.slice(0, 2)}/${oid.slice(2)}`;
    if (entries.get(loose)?.type === "file") {
      const r = await readLoose(loose, files, whole).catch((err) => {
        if (err instanceof Unmeasurable && !whole) throw err;
        return undefined;
      });
      if (r && verified(r.type, r.body, oid)) return r;
    }
    for (const [p, e] of entries) {
      if (e.type !== "file" || !p.startsWith(`${objects}/pack/`) || !p.endsWith(".idx")) continue;
      const pack = `${p.slice(0, -4)}.pack`;
      if (entries.get(pack)?.type !== "file") continue;
      const index = await packIndex(p, e, files, repo.oidLen).catch(() => undefined);
      const offset = index ? findInIndex(index, oid) : undefined;
      if (offset === undefined) continue;
      const r = await readPacked(pack, offset, files, repo, entries, whole).catch((err) => {
        if (err instanceof Unmeasurable && !whole) throw err;
        return undefined;
      });
      if (r && verified(r.type, r.body, oid)) return r;
    }
  }
  return undefined;
}

function verified(type: number, body: Buffer, oid: string): boolean {
  const name = TYPE_NAMES[type];
  if (!name) return false;
  const h = createHash(oid.length === 64 ? "sha256" : "sha1");
  h.update(`${name} ${body.length}\0`);
  h.update(body);
  return h.digest("hex") === oid;
}

const TYPE_BY_NAME: Record<string, number> = { commit: OBJ_COMMIT, tree: OBJ_TREE, blob: OBJ_BLOB, tag: OBJ_TAG };

/** `whole`: any type of object, read whole (a blob or tree of a stash), else only commits and tags. */
async function readLoose(p: string, files: GitFiles, whole = false): Promise<{ type: number; body: Buffer } | undefined> {
  const compressed = await files.readFile(p);
  // The header first, from the start of the stream: a large blob is never inflated whole.
  const start = inflateSync(compressed.subarray(0, 512), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const nul = start.indexOf(0);
  if (nul < 0) return undefined;
  const [name, size] = start.toString("latin1", 0, nul).split(" ");
  const type = TYPE_BY_NAME[name ?? ""];
  if (!type || (!whole && type !== OBJ_COMMIT && type !== OBJ_TAG)) return { type: type ?? 0, body: Buffer.alloc(0) };
  if (Number(size) > MAX_OBJECT_BYTES) throw new Unmeasurable(`an object of ${size} bytes (more than ${MAX_OBJECT_BYTES})`);
  const all = inflateSync(compressed, { maxOutputLength: MAX_OBJECT_BYTES + 64 });
  return { type, body: all.subarray(all.indexOf(0) + 1) };
}

async function packIndex(p: string, e: KnownEntry, files: GitFiles, oidLen: number): Promise<PackIndex> {
  const key = `${p}\0${e.ino}\0${e.size}\0${e.mtimeNs}\0${e.hash ?? ""}`;
  const hit = indexCache.get(key);
  if (hit) return hit;
  const buf = await files.readFile(p);
  const bytes = oidLen / 2;
  if (buf.readUInt32BE(0) !== 0xff744f63 || buf.readUInt32BE(4) !== 2) throw new Error(`${p}: not a version 2 pack index`);
  const count = buf.readUInt32BE(8 + 255 * 4);
  const oidsAt = 8 + 256 * 4;
  const offsetsAt = oidsAt + count * bytes + count * 4;
  const largeAt = offsetsAt + count * 4;
  const offsets: number[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const o = buf.readUInt32BE(offsetsAt + i * 4);
    offsets[i] = o & 0x80000000 ? Number(buf.readBigUInt64BE(largeAt + (o & 0x7fffffff) * 8)) : o;
  }
  const index = { oids: buf.subarray(oidsAt, oidsAt + count * bytes), offsets, count, oidLen };
  if (indexCache.size >= INDEX_CACHE_MAX) indexCache.clear();
  indexCache.set(key, index);
  return index;
}

function findInIndex(index: PackIndex, oid: string): number | undefined {
  const bytes = index.oidLen / 2;
  const want = Buffer.from(oid, "hex");
  let lo = 0;
  let hi = index.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = index.oids.compare(want, 0, bytes, mid * bytes, (mid + 1) * bytes);
    if (c === 0) return index.offsets[mid];
    if (c > 0) hi = mid - 1;
    else lo = mid + 1;
  }
  return undefined;
}

/** One object of a pack at `offset`, its deltas applied. */
async function readPacked(
  pack: string,
  offset: number,
  files: GitFiles,
  repo: Repo,
  entries: ReadonlyMap<string, KnownEntry>,
  whole = false,
): Promise<{ type: number; body: Buffer } | undefined> {
  const fh = await files.open(pack);
  try {
    const chain: Buffer[] = [];
    let at = offset;
    for (let depth = 0; depth <= MAX_DELTA_DEPTH; depth++) {
      const head = Buffer.alloc(32 + repo.oidLen / 2);
      const { bytesRead } = await fh.read(head, 0, head.length, at);
      let i = 0;
      let c = head[i++]!;
      const type = (c >> 4) & 7;
      let size = c & 15;
      let shift = 4;
      while (c & 0x80 && i < bytesRead) {
        c = head[i++]!;
        size += (c & 0x7f) * 2 ** shift;
        shift += 7;
      }
      if (size > MAX_OBJECT_BYTES) throw new Unmeasurable(`a packed object of ${size} bytes (more than ${MAX_OBJECT_BYTES})`);
      let base: { offset: number } | { oid: string } | undefined;
      if (type === OBJ_OFS_DELTA) {
        c = head[i++]!;
        let back = c & 0x7f;
        while (c & 0x80) {
          c = head[i++]!;
          back = (back + 1) * 128 + (c & 0x7f);
        }
        base = { offset: at - back };
      } else if (type === OBJ_REF_DELTA) {
        base = { oid: head.toString("hex", i, i + repo.oidLen / 2) };
        i += repo.oidLen / 2;
      } else if (!TYPE_NAMES[type]) return undefined;
      if (!whole && !base && type !== OBJ_COMMIT && type !== OBJ_TAG && chain.length === 0) return { type, body: Buffer.alloc(0) };
      const data = await inflateAt(fh, at + i, size);
      if (!base) {
        let body = data;
        for (let k = chain.length - 1; k >= 0; k--) body = applyDelta(body, chain[k]!);
        return { type, body };
      }
      chain.push(data);
      if ("offset" in base) at = base.offset;
      else {
        const b = await readObject(repo, base.oid, entries, files, true);
        if (!b) return undefined;
        let body = b.body;
        for (let k = chain.length - 1; k >= 0; k--) body = applyDelta(body, chain[k]!);
        return { type: b.type, body };
      }
    }
    throw new Unmeasurable(`a delta chain longer than ${MAX_DELTA_DEPTH}`);
  } finally {
    await fh.close();
  }
}

/** Inflates the zlib stream at `at` whose output is `size` bytes, reading more input until it ends. */
async function inflateAt(fh: FileHandle, at: number, size: number): Promise<Buffer> {
  for (let want = Math.max(256, size + 64); ; want *= 4) {
    const buf = Buffer.alloc(want);
    const { bytesRead } = await fh.read(buf, 0, want, at);
    try {
      const out = inflateSync(buf.subarray(0, bytesRead), { maxOutputLength: size + 1 });
      if (out.length !== size) throw new Error("an object's size does not match its header");
      return out;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "Z_BUF_ERROR" || bytesRead < want) throw e;
    }
  }
}

/** git's delta format: copy ranges of `base` and insert literal bytes. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    let c: number;
    do {
      c = delta[i++]!;
      v += (c & 0x7f) * 2 ** shift;
      shift += 7;
    } while (c & 0x80);
    return v;
  };
  const baseSize = varint();
  if (baseSize !== base.length) throw new Error("a delta's base size does not match");
  const size = varint();
  if (size > MAX_OBJECT_BYTES) throw new Unmeasurable(`a delta result of ${size} bytes`);
  const out = Buffer.alloc(size);
  let o = 0;
  while (i < delta.length) {
    const op = delta[i++]!;
    if (op & 0x80) {
      let off = 0;
      let len = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) off += delta[i++]! * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (0x10 << b)) len += delta[i++]! * 2 ** (8 * b);
      if (len === 0) len = 0x10000;
      if (off + len > base.length || o + len > size) throw new Error("a delta copies outside its base");
      base.copy(out, o, off, off + len);
      o += len;
    } else if (op > 0) {
      if (o + op > size || i + op > delta.length) throw new Error("a delta inserts past its end");
      delta.copy(out, o, i, i + op);
      o += op;
      i += op;
    } else throw new Error("a delta holds the reserved opcode 0");
  }
  if (o !== size) throw new Error("a delta's result is short");
  return out;
}

"use strict";
// Incremental snapshots: what the measurer keeps of each world it measures.
//
// The measurer lives as long as its world. It keeps the last snapshot it answered (by id) and
// watches every folder of the world with inotify: one fs.watch per folder, added before the
// folder is read. A snapshot relative to that id looks only at the paths that events named
// since, plus the few files no event can vouch for, and answers with the entries that changed,
// appeared or went. Whenever the events may not tell everything, it walks the whole world as a
// full snapshot does (and still answers with the difference only):
// - more than MAX_EVENTS events: the kernel's queue may have overflowed, and libuv drops the
//   overflow mark (it counts as an event for no watch);
// - a watcher error, or a folder that could not be watched (watch limit, no access);
// - a folder that appeared or moved, or whose mode changed: it was not watched while it was
//   new, so a file linked into it, written through that name and unlinked again would have left
//   no event naming the file, and a folder that became readable must be read;
// - a name that came or went more than once: libuv gives no rename cookie, and such a name may
//   have been a second link to a known file, written through and removed;
// - a name written to (or its attributes changed) that is gone without having come or gone: a
//   write through a descriptor opened by a name since unlinked, such as a second link of a
//   known file, names only that name;
// - an event without a name, or a path whose folder is not watched.
// Anything that is not a folder and has more than one link is looked at on every snapshot (a
// write through another name raises no event on this one); so are files without a hash
// (unreadable, or replaced while they were hashed) and files marked appendOf (the mark is
// relative to the snapshot before). A new name whose inode has other names known makes those
// names be looked at too. Links are never followed.
// inotify does not report writes through a shared writable mapping (mmap): such a write is seen
// when something else names the file, or at the next full walk.

const fs = require("node:fs");
const path = require("node:path");
const { OpError } = require("./errors.cjs");
const fsx = require("./fsx.cjs");
const { readRegular } = require("./files.cjs");
const { gitDirsOf, gitHistoryEntries, historyFingerprint } = require("./git-history.ts");
const { diskUse, entryFor, lstatOrNull, nodeCrypto, sameEntry, SNAPSHOT_BATCH, walkRoots } = require("./snapshot.cjs");

const INOTIFY_QUEUE = (() => {
  try {
    return Number(fs.readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf-8").trim()) || 16384;
  } catch {
    return 16384;
  }
})();
/** More events than this since the last snapshot: walk everything. Well below the kernel's queue. */
const MAX_EVENTS = Math.max(16, Math.min(4096, Math.floor(INOTIFY_QUEUE / 4)));
/** Event-loop turns before a snapshot, so that the events of changes made before it was asked for are in. */
const DRAIN_TURNS = 3;
let snapshotIds;
let snapshotSeq = 0;

/**
 * What the measurer knows about one world: the last snapshot answered, its indexes, the watchers,
 * and the events since. One measurer serves every world of a run, each by its own key.
 */
const newWorldState = () => ({
  /** The last snapshot answered (null: none, or its state was lost). */
  id: null,
  /** The world's git history as last answered: virtual key -> entry (git-history.ts), and the fingerprint it was read at. */
  git: new Map(),
  gitFingerprint: null,
  rootsKey: "",
  /** path -> entry, exactly as answered. */
  entries: new Map(),
  /** folder -> the paths known in it. */
  children: new Map(),
  /** inode number -> the known path of it that is not a folder, or a Set of them (several links). */
  inos: new Map(),
  /** Paths looked at on every snapshot (several links, no hash, appendOf). */
  recheck: new Set(),
  /** Files with a hash. */
  hashedFiles: 0,
  /** path -> allocated 512-byte blocks, and their sum: the disk use the world's limit is checked against. */
  blocks: new Map(),
  totalBlocks: 0,
  /** folder -> its watcher. */
  watchers: new Map(),
  /** Watchers to close once a snapshot is answered. */
  stale: [],
  /** Since the last snapshot: path -> {renames, changes}: how many times it came or went, and was changed. */
  dirty: new Map(),
  /** Watched folder -> {renames, changes} of events named like the folder itself (its own, or a child's of that name). */
  selves: new Map(),
  events: 0,
  /** Why the next snapshot must walk everything. */
  doubt: null,
  /** Measurements of this world run one at a time: each snapshot is relative to the one before. */
  queue: Promise.resolve(),
});

function startInterval(w) {
  w.dirty = new Map();
  w.selves = new Map();
  w.events = 0;
  w.doubt = null;
}

/** Adds to the counts of `p` in `map` (a new object: copies of the map handed out stay as they were). */
function bump(map, p, renames, changes) {
  const o = map.get(p);
  map.set(p, o ? { renames: o.renames + renames, changes: o.changes + changes } : { renames, changes });
}

/** One inotify event through the watcher of `dir`: "change" (content, attributes) or "rename" (created, removed, moved). */
function noteEvent(w, dir, type, name) {
  if (++w.events > MAX_EVENTS) return;
  if (typeof name !== "string" || name === "" || name.includes("/")) {
    w.doubt ??= `an event without a name in ${dir}`;
    return;
  }
  const renames = type === "change" ? 0 : 1;
  bump(w.dirty, dir, 0, 0); // its times change with its entries
  const p = path.posix.join(dir, name);
  if (name === path.posix.basename(dir)) {
    // The folder's own deletion, move or attributes, or a child of the same name: told apart at the snapshot.
    bump(w.dirty, p, 0, 0);
    bump(w.selves, dir, renames, 1 - renames);
  } else bump(w.dirty, p, renames, 1 - renames);
}

function watchFolder(w, dir, into) {
  try {
    const watcher = fsx.watch(dir, { persistent: false }, (type, name) => noteEvent(w, dir, type, name));
    watcher.on("error", (e) => {
      w.doubt ??= `watching ${dir} failed: ${e?.code ?? e?.message}`;
    });
    into.set(dir, watcher);
    return true;
  } catch (e) {
    w.doubt ??= `cannot watch ${dir}: ${e?.code ?? e?.message}`;
    return false;
  }
}

function indexAdd(w, p, e, nlink) {
  const parent = path.posix.dirname(p);
  let kids = w.children.get(parent);
  if (!kids) w.children.set(parent, (kids = new Set()));
  kids.add(p);
  if (e.type === "dir") return;
  const names = w.inos.get(e.ino);
  if (names === undefined) w.inos.set(e.ino, p);
  else if (typeof names !== "string") names.add(p);
  else if (names !== p) w.inos.set(e.ino, new Set([names, p]));
  if (e.hash) w.hashedFiles++;
  setRecheck(w, p, e, nlink);
}

function setRecheck(w, p, e, nlink) {
  if (e.type !== "dir" && (nlink > 1 || (e.type === "file" && (!e.hash || e.appendOf)))) w.recheck.add(p);
  else w.recheck.delete(p);
}

function indexRemove(w, p, e) {
  w.children.get(path.posix.dirname(p))?.delete(p);
  if (e.type === "dir") {
    w.children.delete(p);
    const watcher = w.watchers.get(p);
    if (watcher) {
      w.stale.push(watcher);
      w.watchers.delete(p);
    }
    return;
  }
  const names = w.inos.get(e.ino);
  if (names === p) w.inos.delete(e.ino);
  else if (typeof names === "object") {
    names.delete(p);
    if (names.size === 0) w.inos.delete(e.ino);
  }
  if (e.hash) w.hashedFiles--;
  w.recheck.delete(p);
}

/** A full walk that also (re)watches every folder and rebuilds what the measurer knows. */
async function walkAndTrack(w, roots, prevOf, stats) {
  startInterval(w);
  const watchers = new Map();
  let watching = true;
  const { entries, links, blocks } = await walkRoots(roots, prevOf, stats, (dir) => {
    if (watching && !watchFolder(w, dir, watchers)) watching = false;
  });
  w.stale.push(...w.watchers.values());
  if (!watching) {
    // the next snapshot walks everything again (w.doubt is set): these would only count events
    w.stale.push(...watchers.values());
    watchers.clear();
  }
  w.watchers = watchers;
  w.entries = entries;
  w.children = new Map();
  w.inos = new Map();
  w.recheck = new Set();
  w.hashedFiles = 0;
  for (const [p, e] of entries) indexAdd(w, p, e, links.get(p) ?? 1);
  w.blocks = blocks;
  w.totalBlocks = 0;
  for (const b of blocks.values()) w.totalBlocks += b;
  return entries;
}

/**
 * The paths events named since the last snapshot, and those looked at every time, against what
 * is known: `{changed: Map(path -> entry | null), links, blocks}` (null: gone; `links` and
 * `blocks` of every path looked at), or `{doubt}` when only a full walk can tell. Without
 * `hash`, entries are not made: `changed` holds only the paths gone. Changes nothing known (nor
 * `dirty`, `selves`, which the caller hands over); the caller commits.
 */
async function lookAtChanges(w, roots, dirty, selves, stats, hash = true) {
  const known = w.entries;
  const seen = new Map();
  const look = async (p) => {
    if (!seen.has(p)) seen.set(p, lstatOrNull(p));
    return seen.get(p);
  };
  for (const [dir, n] of selves) {
    const st = await look(dir);
    const k = known.get(dir);
    // Still the same folder: the events may have been a child's (a change may also have been its
    // own attributes; counted as a child's all the same). Otherwise they were its own going,
    // which its parent saw too.
    if (st?.isDirectory() && k?.type === "dir" && k.ino === Number(st.ino)) bump(dirty, path.posix.join(dir, path.posix.basename(dir)), n.renames, n.changes);
  }
  for (const [p, n] of dirty) if (n.renames > 1) return { doubt: `${p} came or went more than once` };
  const changed = new Map();
  const links = new Map();
  const blocks = new Map();
  const todo = new Set([...roots, ...dirty.keys(), ...w.recheck]);
  const queue = [...todo];
  let doubt = null;
  const removeTree = (p) => {
    changed.set(p, null);
    for (const c of w.children.get(p) ?? []) removeTree(c);
  };
  const visit = async (p) => {
    const st = await look(p);
    const old = known.get(p);
    if (!st) {
      const n = dirty.get(p);
      if (n && n.changes > 0 && n.renames === 0) {
        doubt ??= `${p} was written to and is gone without having gone`;
        return;
      }
      if (old) removeTree(p);
      return;
    }
    if (!roots.includes(p)) {
      const parent = path.posix.dirname(p);
      if (known.get(parent)?.type !== "dir" || !w.watchers.has(parent) || changed.get(parent) === null) {
        doubt ??= `${p} is in a folder that is not watched`;
        return;
      }
    }
    if (st.isDirectory()) {
      if (old?.type !== "dir" || old.ino !== Number(st.ino) || !w.watchers.has(p)) {
        doubt ??= `${p} is a new or moved folder`;
        return;
      }
      if (old.mode !== Number(st.mode & 0o7777n)) {
        doubt ??= `the mode of ${p} changed`;
        return;
      }
    } else if (old?.type === "dir") {
      removeTree(p);
      changed.delete(p); // it is still there, as something else
    }
    blocks.set(p, Number(st.blocks));
    if (!st.isDirectory()) {
      links.set(p, Number(st.nlink));
      if (st.nlink > 1n) {
        const names = w.inos.get(Number(st.ino));
        for (const q of typeof names === "string" ? [names] : (names ?? [])) {
          if (!todo.has(q)) {
            todo.add(q);
            queue.push(q);
          }
        }
      }
    }
    if (!hash) return;
    const e = await entryFor(p, st, old, stats);
    if (!old || !sameEntry(old, e)) changed.set(p, e);
  };
  for (let i = 0; i < queue.length && !doubt; ) {
    const batch = queue.slice(i, i + SNAPSHOT_BATCH);
    i += batch.length;
    await Promise.all(batch.map(visit));
  }
  if (doubt) return { doubt };
  stats.looked = seen.size;
  return { changed, links, blocks };
}

/** Disk use, in 512-byte blocks, once `changed` (only its nulls count) and `blocks` from lookAtChanges are applied. */
function blocksAfter(w, changed, blocks) {
  let total = w.totalBlocks;
  for (const [p, e] of changed) if (e === null) total -= w.blocks.get(p) ?? 0;
  for (const [p, b] of blocks) total += b - (w.blocks.get(p) ?? 0);
  return total;
}

function commit(w, changed, links, blocks) {
  w.totalBlocks = blocksAfter(w, changed, blocks);
  for (const [p, e] of changed) if (e === null) w.blocks.delete(p);
  for (const [p, b] of blocks) w.blocks.set(p, b);
  for (const [p, e] of changed) {
    const old = w.entries.get(p);
    if (old?.type === "dir" && e?.type === "dir") {
      w.entries.set(p, e); // the same folder (a new or moved one is never committed): its watcher and children stay
      continue;
    }
    if (old) indexRemove(w, p, old);
    if (e === null) w.entries.delete(p);
    else {
      w.entries.set(p, e);
      indexAdd(w, p, e, links.get(p) ?? 1);
    }
  }
  // Looked at and unchanged: the link count may still have changed.
  for (const [p, n] of links) {
    const e = w.entries.get(p);
    if (e && !changed.has(p)) setRecheck(w, p, e, n);
  }
}

function nextSnapshotId() {
  snapshotSeq++;
  snapshotIds ??= `${process.pid}-${nodeCrypto().randomUUID()}`;
  return `${snapshotIds}-${snapshotSeq}`;
}

/**
 * The worlds this measurer keeps, by the key the host gave each (a world, or a second sandbox on
 * the same files). The run's trial folders are bound read-only under one folder; a request names
 * its world's roots as [shown, real] pairs: the path inside the world (/workspace) and where that
 * root is here. Walks use the real paths; answers name the shown ones.
 */
const worlds = new Map();

function worldOf(key) {
  if (typeof key !== "string" || key === "") throw new OpError("EINVAL", "world must be a non-empty string");
  let w = worlds.get(key);
  if (!w) worlds.set(key, (w = newWorldState()));
  return w;
}

/** Closes what the measurer keeps of a world (its watchers) and forgets it. */
function forgetWorld({ world }) {
  const w = worlds.get(world);
  if (!w) return { forgotten: false };
  worlds.delete(world);
  for (const watcher of [...w.watchers.values(), ...w.stale]) watcher.close();
  w.watchers = new Map();
  w.stale = [];
  w.id = null;
  return { forgotten: true };
}

/** The real roots of a request, and the way from a real path back to the path inside the world. */
function rootsOf(roots) {
  if (!Array.isArray(roots) || roots.some((r) => !Array.isArray(r) || r.length !== 2 || r.some((x) => typeof x !== "string" || !x.startsWith("/"))))
    throw new OpError("EINVAL", "roots must be [shown, real] pairs of absolute paths");
  const pairs = roots.map(([shown, real]) => [shown, path.posix.normalize(real)]);
  const show = (p) => {
    for (const [shown, real] of pairs) {
      if (p === real) return shown;
      if (p.startsWith(real) && p[real.length] === "/") return shown + p.slice(real.length);
    }
    return p;
  };
  /** Where a path of the world is here, or undefined outside its roots. */
  const real = (p) => {
    for (const [shown, at] of pairs) {
      if (p === shown) return at;
      if (p.startsWith(shown) && p[shown.length] === "/") return at + p.slice(shown.length);
    }
    return undefined;
  };
  return { abs: pairs.map(([, at]) => at), show, real };
}

/** Paths whose change can change a repository's history (the index cannot). */
const GIT_RELEVANT = /\/(HEAD|packed-refs|config|shallow|commondir)$|\/(objects|refs|logs|worktrees|reftable)(\/|$)/;

/** How the history reader reads the world's files: regular files only, never through a link. */
const GIT_FILES = {
  readFile: (p) => readRegular(p, { noFollow: true }),
  open: (p) => fsx.open(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK),
};

/**
 * The world's git history after a snapshot (git-history.ts), as what changed since the last one:
 * `{changed, removed}` of virtual entries, with shown keys. `touched` lists the paths the
 * snapshot found changed (null: a full snapshot, everything may have).
 */
async function historyUpdate(w, touched, show, real) {
  if (touched !== null && w.gitFingerprint !== null && !touched.some((p) => GIT_RELEVANT.test(p))) return { changed: [], removed: [] };
  const dirs = gitDirsOf(w.entries);
  const fingerprint = historyFingerprint(w.entries, dirs);
  if (fingerprint === w.gitFingerprint) return { changed: [], removed: [] };
  const next = dirs.length === 0 ? new Map() : await gitHistoryEntries(w.entries, GIT_FILES, show, real);
  const changed = [];
  const removed = [];
  for (const [k, e] of next) {
    const o = w.git.get(k);
    if (!o || !sameEntry(o, e)) changed.push([k, e]);
  }
  for (const k of w.git.keys()) if (!next.has(k)) removed.push(k);
  w.git = next;
  w.gitFingerprint = fingerprint;
  return { changed, removed };
}

/** One measurement of a world at a time; different worlds are measured side by side. */
function serially(fn) {
  return (req) => {
    const w = worldOf(req.world);
    const run = w.queue.then(() => fn(w, req));
    w.queue = run.catch(() => {});
    return run;
  };
}

/**
 * The measurer's snapshot. `{roots, previous}`: a full walk, reusing the hashes of `previous`
 * (path -> entry), answered whole: `{id, entries: [[path, entry]...], stats}`. `{roots, base}`: relative to the
 * snapshot `base`, which must be the last one answered (else ESTALE), answered as
 * `{id, changed: [[path, entry]...], removed: [path...], stats}`. `{roots, base, walk: true}`: a full
 * walk reusing the hashes of `base`, answered relative to it: the same entries as `{roots,
 * previous}` with `base` as `previous`, without either being sent whole.
 */
async function measureSnapshot(w, { roots, previous, base, walk }) {
  const { abs, show, real } = rootsOf(roots);
  const rootsKey = JSON.stringify(abs);
  for (let i = 0; i < DRAIN_TURNS; i++) await new Promise((r) => setImmediate(r));
  try {
    const prev = previous ? (p) => previous[show(p)] : () => undefined;
    const a = await answerSnapshot(w, abs, rootsKey, prev, base, walk === true);
    const named = (list) => list.map(([p, e]) => [show(p), e]);
    if (typeof a.stats.reason === "string") a.stats.reason = a.stats.reason.replace(/\/\S*/g, (p) => show(p));
    if (a.entries) {
      w.git = new Map();
      w.gitFingerprint = null;
      await historyUpdate(w, null, show, real);
      return { ...a, entries: [...named(a.entries), ...w.git] };
    }
    const history = await historyUpdate(w, [...a.changed.map(([p]) => p), ...a.removed], show, real);
    return { ...a, changed: [...named(a.changed), ...history.changed], removed: [...a.removed.map(show), ...history.removed] };
  } finally {
    // The folders they watched are gone, or watched again by a new watcher (the same inotify
    // watch: libuv shares it), which would otherwise see every event twice.
    for (const watcher of w.stale.splice(0)) watcher.close();
  }
}

async function answerSnapshot(w, abs, rootsKey, previous, base, walk) {
  const stats = { hashed: 0, reused: 0, incremental: false, looked: 0 };
  if (base === undefined || base === null) {
    w.id = null;
    // Nothing known is needed for a walk relative to the host's `previous`: let it go first.
    w.entries = new Map();
    w.children = new Map();
    w.inos = new Map();
    w.recheck = new Set();
    w.blocks = new Map();
    const entries = await walkAndTrack(w, abs, previous, stats);
    w.id = nextSnapshotId();
    w.rootsKey = rootsKey;
    stats.looked = entries.size;
    return { id: w.id, entries: [...entries], stats };
  }
  if (base !== w.id || rootsKey !== w.rootsKey) throw new OpError("ESTALE", `the measurer does not hold snapshot ${base}`);
  w.id = null; // until this one is answered: a failure below leaves nothing to be relative to
  let reason = walk ? "a walk was asked for" : (w.doubt ?? (w.events > MAX_EVENTS ? `more than ${MAX_EVENTS} events` : null));
  const dirty = w.dirty;
  const selves = w.selves;
  let changed;
  let removed;
  if (!reason) {
    startInterval(w); // from here on, events are for the next snapshot
    const r = await lookAtChanges(w, abs, dirty, selves, stats);
    if (r.doubt) reason = r.doubt;
    else {
      commit(w, r.changed, r.links, r.blocks);
      changed = [];
      removed = [];
      for (const [p, e] of r.changed) {
        if (e === null) removed.push(p);
        else changed.push([p, e]);
      }
      stats.incremental = true;
      stats.reused = Math.max(0, w.hashedFiles - stats.hashed);
    }
  }
  if (reason) {
    const old = w.entries;
    stats.hashed = 0;
    stats.reused = 0;
    const entries = await walkAndTrack(w, abs, (p) => old.get(p), stats);
    stats.looked = entries.size;
    stats.reason = reason;
    changed = [];
    removed = [];
    for (const [p, e] of entries) {
      const o = old.get(p);
      if (!o || !sameEntry(o, e)) changed.push([p, e]);
    }
    for (const p of old.keys()) if (!entries.has(p)) removed.push(p);
  }
  w.id = nextSnapshotId();
  return { id: w.id, changed, removed, stats };
}

/**
 * Disk use of the roots, as opDu, from what is known and the paths events named since the last
 * snapshot (nothing is committed: the next snapshot still sees the same events), or by a walk
 * when there is no snapshot to start from or the events cannot tell. On a disk with delayed
 * allocation (ext4) a file being written back may show fewer blocks for an instant: a walk reads
 * it again next time, the measurer keeps what it read until an event names the file or it walks
 * everything. A few blocks off is nothing to a limit of gigabytes.
 */
async function measureDu(w, { roots }) {
  const { abs } = rootsOf(roots);
  for (let i = 0; i < DRAIN_TURNS; i++) await new Promise((r) => setImmediate(r));
  if (w.id !== null && JSON.stringify(abs) === w.rootsKey && !w.doubt && w.events <= MAX_EVENTS) {
    const r = await lookAtChanges(w, abs, new Map(w.dirty), new Map(w.selves), { hashed: 0, reused: 0 }, false);
    if (!r.doubt) return { bytes: blocksAfter(w, r.changed, r.blocks) * 512, incremental: true };
  }
  return diskUse(abs);
}

module.exports = { worlds, serially, measureSnapshot, measureDu, forgetWorld };

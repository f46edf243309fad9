"use strict";
// Snapshots: every path under the roots with its type, size, mode, content hash and identity, never following a link.
const fsx = require("./fsx.cjs");
const fs = require("node:fs");
const path = require("node:path");
const { OpError } = require("./errors.cjs");
const { O_READ_SAFE } = require("./files.cjs");
const { resolvePath } = require("./paths.cjs");
const { walk, typeOf } = require("./walk.cjs");

// Loaded when first needed, not at start: most helpers hash nothing (the measurer takes the snapshots).
let cryptoModule;
const nodeCrypto = () => (cryptoModule ??= require("node:crypto"));

/**
 * sha256 of a regular file (never through a link). With `prefixLen`, also the sha256 of its
 * first prefixLen bytes, in the same pass: equal to the previous content's hash, the file was
 * only appended to.
 */
async function hashFile(abs, ino, prefixLen) {
  const fh = await fsx.open(abs, O_READ_SAFE | fs.constants.O_NOFOLLOW);
  try {
    const st = await fh.stat({ bigint: true });
    if (!st.isFile() || st.ino !== ino) return undefined; // replaced while walking
    const h = nodeCrypto().createHash("sha256");
    const p = prefixLen === undefined ? undefined : nodeCrypto().createHash("sha256");
    let read = 0;
    const buf = Buffer.allocUnsafe(1 << 16);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      h.update(chunk);
      if (p && read < prefixLen) p.update(chunk.subarray(0, Math.min(bytesRead, prefixLen - read)));
      read += bytesRead;
    }
    return { hash: h.digest("hex"), prefixHash: p && read >= prefixLen ? p.digest("hex") : undefined };
  } finally {
    await fh.close();
  }
}

/**
 * The entry of `abs`, lstat'ed as `st` (bigint). `prev` is the path's entry in the snapshot this
 * one is relative to, if any: a regular file whose ino, size, mtime and ctime all match keeps its
 * hash; one that grew and whose first prev.size bytes still hash to prev.hash was appended to.
 */
async function entryFor(abs, st, prev, stats) {
  const type = typeOf(st);
  const e = {
    type,
    size: Number(st.size),
    mode: Number(st.mode & 0o7777n),
    mtimeNs: st.mtimeNs.toString(),
    ctimeNs: st.ctimeNs.toString(),
    ino: Number(st.ino),
  };
  if (type === "symlink") e.target = await fsx.readlink(abs);
  if (type === "file") {
    if (prev && prev.type === "file" && prev.hash && prev.ino === e.ino && prev.size === e.size && prev.mtimeNs === e.mtimeNs && prev.ctimeNs === e.ctimeNs) {
      e.hash = prev.hash;
      stats.reused++;
    } else {
      try {
        const grew = prev && prev.type === "file" && prev.hash && e.size > prev.size;
        const h = await hashFile(abs, st.ino, grew ? prev.size : undefined);
        if (h) {
          e.hash = h.hash;
          if (grew && h.prefixHash === prev.hash) e.appendOf = prev.hash;
        }
        stats.hashed++;
      } catch {
        // unreadable file: recorded without a hash
      }
    }
  }
  return e;
}

const ENTRY_FIELDS = ["type", "size", "mode", "hash", "appendOf", "target", "mtimeNs", "ctimeNs", "ino"];

function sameEntry(a, b) {
  for (const f of ENTRY_FIELDS) if (a[f] !== b[f]) return false;
  return true;
}

/** Gone between the listing and the look (or never there): the only failures a walk may skip. */
const GONE = new Set(["ENOENT", "ENOTDIR"]);

/** A path that could not be looked at for any other reason: the world cannot be measured whole. */
function unmeasurable(abs, e) {
  return new OpError("EUNMEASURABLE", `cannot read ${abs}: ${e?.code ?? e?.message ?? e}`);
}

async function lstatOrNull(abs) {
  try {
    return await fsx.lstat(abs, { bigint: true });
  } catch (e) {
    if (GONE.has(e?.code)) return null;
    throw unmeasurable(abs, e);
  }
}

const SNAPSHOT_BATCH = 32;

/**
 * Every path under `roots` (absolute), never following a link: path -> entry, path -> link
 * count of what has more than one link, and path -> allocated 512-byte blocks.
 * `prevOf(path)` is the path's previous entry.
 * `watch(dir)`, when given, is called on each folder before it is read: whatever changes in it
 * afterwards raises an event, whatever changed before is read.
 */
async function walkRoots(roots, prevOf, stats, watch) {
  const entries = new Map();
  const links = new Map();
  const blocks = new Map();
  const add = async (abs, st) => {
    const e = await entryFor(abs, st, prevOf(abs), stats);
    entries.set(abs, e);
    blocks.set(abs, Number(st.blocks));
    if (e.type !== "dir" && st.nlink > 1n) links.set(abs, Number(st.nlink));
  };
  for (const root of roots) {
    const st = await lstatOrNull(root);
    if (!st) continue;
    await add(root, st);
    if (!st.isDirectory()) continue;
    const stack = [root];
    while (stack.length > 0) {
      const dir = stack.pop();
      watch?.(dir);
      let names;
      try {
        names = await fsx.readdir(dir);
      } catch (e) {
        if (GONE.has(e?.code)) continue;
        throw unmeasurable(dir, e);
      }
      // lstat + hash in small concurrent batches: per-entry round trips dominate otherwise.
      for (let i = 0; i < names.length; i += SNAPSHOT_BATCH) {
        await Promise.all(
          names.slice(i, i + SNAPSHOT_BATCH).map(async (n) => {
            const abs = path.posix.join(dir, n);
            const cst = await lstatOrNull(abs);
            if (!cst) return;
            await add(abs, cst);
            if (cst.isDirectory()) stack.push(abs);
          }),
        );
      }
    }
  }
  return { entries, links, blocks };
}

/** A full snapshot, remembering nothing (the agent helper's op). */
async function opSnapshot({ roots, previous }) {
  const stats = { hashed: 0, reused: 0 };
  const { entries } = await walkRoots(roots.map(resolvePath), (p) => previous?.[p], stats);
  return { entries: Object.fromEntries(entries), stats };
}

/** Disk use of the roots: allocated blocks of every entry, walked without following links. */
function opDu({ roots }) {
  return diskUse(roots.map(resolvePath));
}

async function diskUse(absRoots) {
  let bytes = 0;
  for (const root of absRoots) {
    let st;
    try {
      st = await fsx.lstat(root);
    } catch {
      continue;
    }
    bytes += st.blocks * 512;
    if (!st.isDirectory()) continue;
    for await (const { st: cst } of walk(root, { skipDirs: new Set() })) bytes += cst.blocks * 512;
  }
  return { bytes };
}

module.exports = { nodeCrypto, entryFor, sameEntry, lstatOrNull, SNAPSHOT_BATCH, walkRoots, opSnapshot, opDu, diskUse };

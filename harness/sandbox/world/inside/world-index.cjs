"use strict";
// A listing of the world's roots taken once, as the helper sees them (its user, its profile), so
// a caller that knows the world will not change (explain --corpus decides calls, it runs none)
// can answer the gates' lookups from it: for every entry its lstat (type, size, mode), a link's
// text, a folder's names (or that they could not be read), and a small regular file's text.
const fsx = require("./fsx.cjs");
const path = require("node:path");
const { readRegular } = require("./files.cjs");
const { typeOf } = require("./walk.cjs");

/**
 * `roots`: absolute sandbox paths. Returns { roots: {path, real}[], entries: [path, entry][] } or
 * { incomplete: reason } past `maxEntries` entries. An entry: { type, size, mode, target?,
 * names?: string[] | null (a folder's sorted names; null: unreadable), text?: string | null (a
 * regular file's content read as readFile does; null: unreadable; absent: too large) }.
 */
async function opIndex({ roots, maxEntries = 100_000, maxFileBytes = 256 * 1024, maxTextBytes = 8 * 1024 * 1024 }) {
  if (!Array.isArray(roots)) throw Object.assign(new Error("roots must be a list"), { code: "EINVAL" });
  const entries = [];
  const shownRoots = [];
  let textBytes = 0;
  const visit = async (abs, st) => {
    if (entries.length >= maxEntries) return false;
    const type = typeOf(st);
    const e = { type, size: st.size, mode: st.mode & 0o7777 };
    if (type === "symlink") {
      try {
        e.target = await fsx.readlink(abs);
      } catch {
        e.target = null;
      }
    } else if (type === "file" && st.size <= maxFileBytes && textBytes + st.size <= maxTextBytes) {
      try {
        e.text = (await readRegular(abs, { noFollow: true })).toString("utf-8");
        textBytes += st.size;
      } catch {
        e.text = null;
      }
    }
    entries.push([abs, e]);
    if (type !== "dir") return true;
    let names;
    try {
      names = (await fsx.readdir(abs)).sort();
    } catch {
      e.names = null;
      return true;
    }
    e.names = names;
    for (const n of names) {
      const child = path.posix.join(abs, n);
      let cst;
      try {
        cst = await fsx.lstat(child);
      } catch {
        continue; // listed but not looked at: the reader delegates anything below a folder with a missing child
      }
      if (!(await visit(child, cst))) return false;
    }
    return true;
  };
  for (const root of roots) {
    let st;
    let real = null;
    try {
      st = await fsx.lstat(root);
      real = await fsx.realpath(root);
    } catch {
      shownRoots.push({ path: root, real: null });
      continue;
    }
    shownRoots.push({ path: root, real });
    if (!(await visit(root, st))) return { incomplete: `more than ${maxEntries} entries` };
  }
  return { roots: shownRoots, entries };
}

module.exports = { opIndex };

"use strict";
// Walking a folder tree without ever following a link.
const fsx = require("./fsx.cjs");
const path = require("node:path");

const SKIP_DIRS = new Set([".git", "node_modules"]);

/** Depth-first walk that never follows links. Yields {abs, st, isDir}. */
async function* walk(root, { skipDirs = SKIP_DIRS } = {}) {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop();
    let names;
    try {
      names = await fsx.readdir(dir);
    } catch {
      continue;
    }
    names.sort();
    const subdirs = [];
    for (const n of names) {
      const abs = path.posix.join(dir, n);
      let st;
      try {
        st = await fsx.lstat(abs);
      } catch {
        continue;
      }
      yield { abs, name: n, st };
      if (st.isDirectory() && !skipDirs.has(n)) subdirs.push(abs);
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}

function typeOf(st) {
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "dir";
  if (st.isSymbolicLink()) return "symlink";
  return "other";
}

module.exports = { SKIP_DIRS, walk, typeOf };

"use strict";
// Glob patterns: bash pathname expansion (EnvView.glob) and the fd-like matching of the find and grep tools.
const fsx = require("./fsx.cjs");
const path = require("node:path");
const { resolvePath } = require("./paths.cjs");
const { expandBraces, globRegex } = require("./glob-pattern.cjs");

const GLOB_CHARS = /[*?[]/;

/** Bash-like pathname expansion of an absolute pattern (no globstar, dotfiles only for '.' segments). */
async function bashGlob(pattern) {
  const abs = resolvePath(pattern);
  const results = new Set();
  for (const p of expandBraces(abs)) {
    for (const m of await globOne(p)) results.add(m);
  }
  return [...results].sort();
}

async function globOne(pattern) {
  const segments = pattern.split("/").filter((s) => s !== "");
  let current = ["/"];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const last = i === segments.length - 1;
    const next = [];
    if (!GLOB_CHARS.test(seg)) {
      const lit = seg.replace(/\\(.)/g, "$1");
      for (const base of current) {
        const p = path.posix.join(base, lit);
        if (last ? await lexists(p) : await isDirFollow(p)) next.push(p);
      }
    } else {
      const re = globRegex(seg);
      const allowDot = seg.startsWith(".");
      for (const base of current) {
        let names;
        try {
          names = await fsx.readdir(base);
        } catch {
          continue;
        }
        for (const n of names.sort()) {
          if (n.startsWith(".") && !allowDot) continue;
          if (!re.test(n)) continue;
          const p = path.posix.join(base, n);
          if (last || (await isDirFollow(p))) next.push(p);
        }
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return segments.length === 0 ? ["/"] : current;
}

async function lexists(p) {
  try {
    await fsx.lstat(p);
    return true;
  } catch {
    return false;
  }
}

async function isDirFollow(p) {
  try {
    return (await fsx.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

module.exports = { expandBraces, globRegex, bashGlob, lexists };

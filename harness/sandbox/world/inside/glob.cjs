"use strict";
// Glob patterns: bash pathname expansion (EnvView.glob) and the fd-like matching of the find and grep tools.
const fsx = require("./fsx.cjs");
const path = require("node:path");
const { resolvePath } = require("./paths.cjs");

/** Expands {a,b} alternatives (nested allowed) like bash brace expansion. */
function expandBraces(pattern) {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0) {
        const body = pattern.slice(start + 1, i);
        const parts = splitTopLevelCommas(body);
        if (parts.length < 2) continue;
        const pre = pattern.slice(0, start);
        const post = pattern.slice(i + 1);
        return parts.flatMap((p) => expandBraces(pre + p + post));
      }
    }
  }
  return [pattern];
}

function splitTopLevelCommas(s) {
  const parts = [];
  let depth = 0;
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "\\") {
      cur += c + (s[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "," && depth === 0) {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  parts.push(cur);
  return parts;
}

function escapeRegex(c) {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? "\\" + c : c;
}

/** Regex source for a glob without braces. `**` spans directories only when globstar is set. */
function globBody(glob, globstar) {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) {
      re += escapeRegex(glob[++i]);
    } else if (c === "*") {
      if (globstar && glob[i + 1] === "*") {
        i++;
        if (glob[i + 1] === "/") {
          i++;
          re += "(?:.*/)?";
        } else re += ".*";
      } else re += "[^/]*";
    } else if (c === "?") {
      re += "[^/]";
    } else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) {
        re += "\\[";
        continue;
      }
      let cls = glob.slice(i + 1, end);
      if (cls.startsWith("!") || cls.startsWith("^")) cls = "^" + cls.slice(1);
      re += "[" + cls.replace(/\\/g, "\\\\") + "]";
      i = end;
    } else re += escapeRegex(c);
  }
  return re;
}

function globRegex(glob, { globstar = false } = {}) {
  const alts = expandBraces(glob).map((g) => globBody(g, globstar));
  return new RegExp("^(?:" + alts.join("|") + ")$");
}

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

"use strict";
// Glob patterns as regular expressions, without the file system: brace expansion and one
// segment's match (glob.cjs expands them against the world; the host's listing of a world,
// harness/apps/explain/world-index.ts, matches with the same code).

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

module.exports = { expandBraces, globRegex };

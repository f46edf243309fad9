"use strict";
// The agent's file tools with Pi's semantics: read, write, edit, ls, find, grep, delete.
const fsx = require("./fsx.cjs");
const path = require("node:path");
const { OpError } = require("./errors.cjs");
const { readRegular, writeRegular } = require("./files.cjs");
const { globRegex, lexists } = require("./glob.cjs");
const { resolveToolPath } = require("./paths.cjs");
const { SKIP_DIRS, walk } = require("./walk.cjs");

const MAX_LINES = 2000;
const MAX_BYTES = 50 * 1024;
const GREP_MAX_LINE = 500;

function formatSize(bytes) {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function truncateHead(content, maxLines = MAX_LINES, maxBytes = MAX_BYTES) {
  const lines = content.split("\n");
  const totalBytes = Buffer.byteLength(content, "utf-8");
  if (lines.length <= maxLines && totalBytes <= maxBytes) {
    return { content, truncated: false, outputLines: lines.length, totalLines: lines.length };
  }
  if (Buffer.byteLength(lines[0], "utf-8") > maxBytes) {
    return { content: "", truncated: true, truncatedBy: "bytes", firstLineExceedsLimit: true, outputLines: 0, totalLines: lines.length };
  }
  const out = [];
  let bytes = 0;
  let truncatedBy = "lines";
  for (let i = 0; i < lines.length && i < maxLines; i++) {
    const b = Buffer.byteLength(lines[i], "utf-8") + (i > 0 ? 1 : 0);
    if (bytes + b > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    out.push(lines[i]);
    bytes += b;
  }
  return { content: out.join("\n"), truncated: true, truncatedBy, firstLineExceedsLimit: false, outputLines: out.length, totalLines: lines.length };
}

async function opRead({ path: p, offset, limit }) {
  const abs = resolveToolPath(p);
  const text = (await readRegular(abs)).toString("utf-8");
  const allLines = text.split("\n");
  const startLine = offset ? Math.max(0, offset - 1) : 0;
  const startDisplay = startLine + 1;
  if (startLine >= allLines.length) {
    throw new OpError("EINVAL", `Offset ${offset} is beyond end of file (${allLines.length} lines total)`);
  }
  let selected;
  let userLimited;
  if (limit !== undefined && limit !== null) {
    const end = Math.min(startLine + limit, allLines.length);
    selected = allLines.slice(startLine, end).join("\n");
    userLimited = end - startLine;
  } else selected = allLines.slice(startLine).join("\n");
  const t = truncateHead(selected);
  if (t.firstLineExceedsLimit) {
    const size = formatSize(Buffer.byteLength(allLines[startLine], "utf-8"));
    return `[Line ${startDisplay} is ${size}, exceeds ${formatSize(MAX_BYTES)} limit. Use bash: sed -n '${startDisplay}p' ${p} | head -c ${MAX_BYTES}]`;
  }
  if (t.truncated) {
    const endDisplay = startDisplay + t.outputLines - 1;
    const limitNote = t.truncatedBy === "lines" ? "" : ` (${formatSize(MAX_BYTES)} limit)`;
    return `${t.content}\n\n[Showing lines ${startDisplay}-${endDisplay} of ${allLines.length}${limitNote}. Use offset=${endDisplay + 1} to continue.]`;
  }
  if (userLimited !== undefined && startLine + userLimited < allLines.length) {
    const remaining = allLines.length - (startLine + userLimited);
    return `${t.content}\n\n[${remaining} more lines in file. Use offset=${startLine + userLimited + 1} to continue.]`;
  }
  return t.content;
}

async function opWrite({ path: p, content }) {
  if (typeof content !== "string") throw new OpError("EINVAL", "content must be a string");
  const abs = resolveToolPath(p);
  await writeRegular(abs, content);
  return { bytes: Buffer.byteLength(content, "utf-8") };
}

function normalizeToLF(s) {
  return s.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

/** Pi's edit with exact matching: every oldText unique in the original, no overlaps, some change. */
function applyEdits(content, edits, p) {
  const n = edits.length;
  const matched = edits.map((e, i) => {
    const oldText = normalizeToLF(e.oldText);
    const newText = normalizeToLF(e.newText);
    const label = n === 1 ? "the text" : `edits[${i}]`;
    if (oldText.length === 0) throw new OpError("EINVAL", n === 1 ? `oldText must not be empty in ${p}.` : `edits[${i}].oldText must not be empty in ${p}.`);
    const index = content.indexOf(oldText);
    if (index === -1) {
      throw new OpError(
        "ENOMATCH",
        n === 1
          ? `Could not find the exact text in ${p}. The old text must match exactly including all whitespace and newlines.`
          : `Could not find edits[${i}] in ${p}. The oldText must match exactly including all whitespace and newlines.`,
      );
    }
    const occurrences = content.split(oldText).length - 1;
    if (occurrences > 1) {
      throw new OpError(
        "ENOTUNIQUE",
        `Found ${occurrences} occurrences of ${label} in ${p}. ${n === 1 ? "The text must be unique" : "Each oldText must be unique"}. Please provide more context to make it unique.`,
      );
    }
    return { i, index, length: oldText.length, newText };
  });
  matched.sort((a, b) => a.index - b.index);
  for (let k = 1; k < matched.length; k++) {
    const prev = matched[k - 1];
    const cur = matched[k];
    if (prev.index + prev.length > cur.index) {
      throw new OpError("EOVERLAP", `edits[${prev.i}] and edits[${cur.i}] overlap in ${p}. Merge them into one edit or target disjoint regions.`);
    }
  }
  let out = content;
  for (let k = matched.length - 1; k >= 0; k--) {
    const m = matched[k];
    out = out.slice(0, m.index) + m.newText + out.slice(m.index + m.length);
  }
  if (out === content) throw new OpError("ENOCHANGE", `No changes made to ${p}. The replacement produced identical content.`);
  return out;
}

async function opEdit({ path: p, edits }) {
  if (!Array.isArray(edits) || edits.length === 0) throw new OpError("EINVAL", "Edit tool input is invalid. edits must contain at least one replacement.");
  for (const e of edits) {
    if (!e || typeof e.oldText !== "string" || typeof e.newText !== "string") throw new OpError("EINVAL", "each edit needs string oldText and newText");
  }
  const abs = resolveToolPath(p);
  let raw;
  try {
    raw = (await readRegular(abs)).toString("utf-8");
  } catch (e) {
    throw new OpError(e.code ?? "EIO", `Could not edit file: ${p}. Error code: ${e.code ?? e.message}.`);
  }
  const bom = raw.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = raw.slice(bom.length);
  const crlf = text.indexOf("\r\n") !== -1 && text.indexOf("\r\n") <= text.indexOf("\n");
  const updated = applyEdits(normalizeToLF(text), edits, p);
  await writeRegular(abs, bom + (crlf ? updated.replace(/\n/g, "\r\n") : updated));
  return { replaced: edits.length };
}

async function opLs({ path: p, limit }) {
  const dir = resolveToolPath(p, ".");
  const effLimit = limit ?? 500;
  let st;
  try {
    st = await fsx.stat(dir);
  } catch {
    throw new OpError("ENOENT", `Path not found: ${dir}`);
  }
  if (!st.isDirectory()) throw new OpError("ENOTDIR", `Not a directory: ${dir}`);
  const names = await fsx.readdir(dir);
  names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const results = [];
  let limitReached = false;
  for (const n of names) {
    if (results.length >= effLimit) {
      limitReached = true;
      break;
    }
    let suffix = "";
    try {
      if ((await fsx.stat(path.posix.join(dir, n))).isDirectory()) suffix = "/";
    } catch {
      // dangling link: listed without suffix
    }
    results.push(n + suffix);
  }
  if (results.length === 0) return "(empty directory)";
  return withNotices(results.join("\n"), limitReached ? `${effLimit} entries limit reached. Use limit=${effLimit * 2} for more` : null);
}

function withNotices(raw, firstNotice) {
  const t = truncateHead(raw, Number.MAX_SAFE_INTEGER);
  const notices = [];
  if (firstNotice) notices.push(firstNotice);
  if (t.truncated) notices.push(`${formatSize(MAX_BYTES)} limit reached`);
  return notices.length > 0 ? `${t.content}\n\n[${notices.join(". ")}]` : t.content;
}

async function opFind({ pattern, path: p, limit }) {
  if (typeof pattern !== "string" || pattern === "") throw new OpError("EINVAL", "pattern must be a non-empty string");
  const root = resolveToolPath(p, ".");
  if (!(await lexists(root))) throw new OpError("ENOENT", `Path not found: ${root}`);
  const effLimit = limit ?? 1000;
  // Like fd --glob: basename match, or full-path match when the pattern has a '/'.
  const fullPath = pattern.includes("/");
  let effective = pattern;
  if (fullPath && !pattern.startsWith("/") && !pattern.startsWith("**/") && pattern !== "**") effective = `**/${pattern}`;
  const re = globRegex(effective, { globstar: true });
  const found = [];
  for await (const { abs, name } of walk(root)) {
    if (SKIP_DIRS.has(name)) continue;
    if (re.test(fullPath ? abs : name)) {
      found.push(path.posix.relative(root, abs));
      if (found.length >= effLimit) break;
    }
  }
  if (found.length === 0) return "No files found matching pattern";
  return withNotices(found.join("\n"), found.length >= effLimit ? `${effLimit} results limit reached` : null);
}

async function opGrep({ pattern, path: p, glob, ignoreCase, literal, context, limit }) {
  if (typeof pattern !== "string") throw new OpError("EINVAL", "pattern must be a string");
  const root = resolveToolPath(p, ".");
  let rootSt;
  try {
    rootSt = await fsx.stat(root);
  } catch {
    throw new OpError("ENOENT", `Path not found: ${root}`);
  }
  let re;
  try {
    re = new RegExp(literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern, ignoreCase ? "i" : "");
  } catch (e) {
    throw new OpError("EINVAL", `Invalid regex: ${e.message}`);
  }
  const globRe = glob ? globRegex(glob.includes("/") && !glob.startsWith("**/") ? `**/${glob}` : glob, { globstar: true }) : null;
  const ctx = context && context > 0 ? context : 0;
  const effLimit = Math.max(1, limit ?? 100);
  const files = [];
  if (rootSt.isDirectory()) {
    for await (const { abs, name, st } of walk(root)) {
      if (!st.isFile() || SKIP_DIRS.has(name)) continue;
      const rel = path.posix.relative(root, abs);
      if (globRe && !globRe.test(glob.includes("/") ? rel : name)) continue;
      files.push({ abs, display: rel, noFollow: true });
    }
  } else files.push({ abs: root, display: path.posix.basename(root), noFollow: false }); // an explicit file path is followed, like rg
  const out = [];
  let matches = 0;
  let linesTruncated = false;
  const fmt = (s) => {
    if (s.length > GREP_MAX_LINE) {
      linesTruncated = true;
      return s.slice(0, GREP_MAX_LINE) + "... [truncated]";
    }
    return s;
  };
  outer: for (const f of files) {
    let buf;
    try {
      buf = await readRegular(f.abs, { noFollow: f.noFollow });
    } catch {
      continue;
    }
    if (buf.subarray(0, 8192).includes(0)) continue; // binary, like rg
    const lines = normalizeToLF(buf.toString("utf-8")).split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i])) continue;
      if (matches >= effLimit) break outer;
      matches++;
      // Like Pi: one block per match, context lines around it (blocks may repeat lines).
      const from = Math.max(0, i - ctx);
      const to = Math.min(lines.length - 1, i + ctx);
      for (let k = from; k <= to; k++) {
        out.push(k === i ? `${f.display}:${k + 1}: ${fmt(lines[k])}` : `${f.display}-${k + 1}- ${fmt(lines[k])}`);
      }
    }
  }
  if (matches === 0) return "No matches found";
  const notices = [];
  if (matches >= effLimit) notices.push(`${effLimit} matches limit reached. Use limit=${effLimit * 2} for more, or refine pattern`);
  if (linesTruncated) notices.push(`Some lines truncated to ${GREP_MAX_LINE} chars. Use read tool to see full lines`);
  return withNotices(out.join("\n"), notices.join(". ") || null);
}

/** Deletes a path without following links: a link is removed, never its target. */
async function opDelete({ path: p, recursive }) {
  const abs = resolveToolPath(p);
  const st = await fsx.lstat(abs);
  if (!st.isDirectory()) {
    await fsx.unlink(abs);
    return { removed: 1 };
  }
  if (!recursive) {
    const names = await fsx.readdir(abs);
    if (names.length > 0)
      throw new OpError("ENOTEMPTY", `Directory not empty: ${abs} (${names.length} entries). Pass recursive: true to delete it with its contents.`);
    await fsx.rmdir(abs);
    return { removed: 1 };
  }
  let count = 1;
  for await (const _ of walk(abs, { skipDirs: new Set() })) count++;
  await fsx.rm(abs, { recursive: true, force: false });
  return { removed: count };
}

module.exports = { opRead, opWrite, opEdit, opLs, opFind, opGrep, opDelete };

"use strict";
// gatebench in-sandbox helper. Runs under /usr/bin/node INSIDE the trial's bubblewrap sandbox,
// one process per trial. Protocol: one JSON request per line on stdin
//   {"id": 1, "op": "read", "path": "a.txt", ...}
// one JSON response per line on stdout
//   {"id": 1, "ok": true, "value": ...} | {"id": 1, "ok": false, "code": "ENOENT", "message": "..."}
// Requests may overlap (ids). Nothing here may crash the process: every op is wrapped.
// Plain JavaScript (CommonJS: it starts about 10 ms sooner than the same file as an ES module, and
// a run starts over a thousand of these) with node builtins only: nothing from the host's node_modules is visible here.
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const path = require("node:path");
const readline = require("node:readline");

// Loaded when first needed, not at start: most helpers hash nothing (the measurer takes the
// snapshots) and many run no command, and each of these modules costs a few ms of every start.
let childProcessModule;
const childProcess = () => (childProcessModule ??= require("node:child_process"));
let cryptoModule;
const nodeCrypto = () => (cryptoModule ??= require("node:crypto"));

const WORKSPACE = "/workspace";
const HOME = "/home/user";
const MAX_LINES = 2000;
const MAX_BYTES = 50 * 1024;
const GREP_MAX_LINE = 500;
const SKIP_DIRS = new Set([".git", "node_modules"]);

// argv: --measurer (snapshot-only, see OPS) and --limits=<json> ({memoryMb, pids, fileSizeMb}).
const MEASURER = process.argv.includes("--measurer");
const LIMITS = (() => {
  const a = process.argv.find((x) => x.startsWith("--limits="));
  return a ? JSON.parse(a.slice("--limits=".length)) : null;
})();

class OpError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// ---------- paths ----------

/** Sandbox path for a request path: ~ expands to HOME, relative paths resolve against /workspace. */
function resolvePath(p) {
  if (typeof p !== "string" || p === "") throw new OpError("EINVAL", "path must be a non-empty string");
  if (p === "~") return HOME;
  if (p.startsWith("~/")) return path.posix.resolve(HOME, p.slice(2));
  return path.posix.resolve(WORKSPACE, p);
}

/** Like resolvePath but with Pi's tool conveniences (leading '@' stripped, unicode spaces normalised). */
function resolveToolPath(p, fallback) {
  if (p === undefined || p === null || p === "") {
    if (fallback !== undefined) return resolvePath(fallback);
  }
  if (typeof p !== "string") throw new OpError("EINVAL", "path must be a string");
  let s = p.replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ");
  if (s.startsWith("@")) s = s.slice(1);
  return resolvePath(s);
}

// ---------- safe file access ----------

const O_READ_SAFE = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

/** Reads a regular file (following links unless noFollow). Never blocks on a FIFO or device. */
async function readRegular(abs, { noFollow = false } = {}) {
  const flags = O_READ_SAFE | (noFollow ? fs.constants.O_NOFOLLOW : 0);
  let fh;
  try {
    fh = await fsp.open(abs, flags);
  } catch (e) {
    if (e.code === "ELOOP" && noFollow) throw new OpError("ELOOP", `${abs} is a symbolic link`);
    throw e;
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new OpError("EISDIR", `${abs} is a directory`);
    if (!st.isFile()) throw new OpError("ENOTREG", `${abs} is not a regular file`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/** Writes a file like Pi's write (parents created, links followed) without blocking on FIFOs. */
async function writeRegular(abs, content) {
  await fsp.mkdir(path.posix.dirname(abs), { recursive: true });
  const fh = await fsp.open(abs, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_NONBLOCK, 0o644);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new OpError("ENOTREG", `${abs} is not a regular file`);
    await fh.truncate(0);
    await fh.writeFile(content, "utf-8");
  } finally {
    await fh.close();
  }
}

// ---------- truncation (Pi's truncateHead) ----------

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

// ---------- glob matching ----------

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
          names = await fsp.readdir(base);
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
    await fsp.lstat(p);
    return true;
  } catch {
    return false;
  }
}

async function isDirFollow(p) {
  try {
    return (await fsp.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

// ---------- walking ----------

/** Depth-first walk that never follows links. Yields {abs, st, isDir}. */
async function* walk(root, { skipDirs = SKIP_DIRS } = {}) {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop();
    let names;
    try {
      names = await fsp.readdir(dir);
    } catch {
      continue;
    }
    names.sort();
    const subdirs = [];
    for (const n of names) {
      const abs = path.posix.join(dir, n);
      let st;
      try {
        st = await fsp.lstat(abs);
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

// ---------- tool ops (Pi semantics) ----------

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
    st = await fsp.stat(dir);
  } catch {
    throw new OpError("ENOENT", `Path not found: ${dir}`);
  }
  if (!st.isDirectory()) throw new OpError("ENOTDIR", `Not a directory: ${dir}`);
  const names = await fsp.readdir(dir);
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
      if ((await fsp.stat(path.posix.join(dir, n))).isDirectory()) suffix = "/";
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
    rootSt = await fsp.stat(root);
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
  const st = await fsp.lstat(abs);
  if (!st.isDirectory()) {
    await fsp.unlink(abs);
    return { removed: 1 };
  }
  if (!recursive) {
    const names = await fsp.readdir(abs);
    if (names.length > 0)
      throw new OpError("ENOTEMPTY", `Directory not empty: ${abs} (${names.length} entries). Pass recursive: true to delete it with its contents.`);
    await fsp.rmdir(abs);
    return { removed: 1 };
  }
  let count = 1;
  for await (const _ of walk(abs, { skipDirs: new Set() })) count++;
  await fsp.rm(abs, { recursive: true, force: false });
  return { removed: count };
}

// ---------- exec ----------

let activeExecs = 0;

/** Tail-keeping byte collector with a cap. */
function collector(cap) {
  const chunks = [];
  let size = 0;
  let total = 0;
  return {
    push(buf) {
      total += buf.length;
      chunks.push(buf);
      size += buf.length;
      while (size - chunks[0].length >= cap) size -= chunks.shift().length;
    },
    result() {
      let b = Buffer.concat(chunks);
      if (b.length > cap) b = b.subarray(b.length - cap);
      return { text: b.toString("utf-8"), truncated: total > cap };
    },
  };
}

function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // group already gone
  }
}

/** Kills every process in the sandbox except init (pid 1) and this helper, when no exec runs. */
function killStrays() {
  if (activeExecs > 0) return;
  let pids;
  try {
    pids = fs
      .readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return;
  }
  for (const pid of pids) {
    if (pid === 1 || pid === process.pid) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/** bash -c under the world's rlimits (prlimit sets them, then execs bash). */
function commandLine(command) {
  if (!LIMITS) return ["/bin/bash", ["-c", command]];
  const mb = 1024 * 1024;
  return [
    "/usr/bin/prlimit",
    [`--as=${LIMITS.memoryMb * mb}`, `--nproc=${LIMITS.pids}`, `--fsize=${LIMITS.fileSizeMb * mb}`, "--core=0", "--", "/bin/bash", "-c", command],
  ];
}

function countProcs() {
  try {
    return fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n)).length;
  } catch {
    return 0;
  }
}

const MEMORY_ERRORS = /cannot allocate|MemoryError|out of memory|bad_alloc|memory exhausted|Failed to reserve virtual memory|allocation failed/i;
const PIDS_ERRORS = /\bfork: (retry: )?Resource temporarily unavailable|\bcannot fork|\bcan't fork|\bfork failed/i;

/**
 * Which world limit ended the command, as far as rlimits let us tell: SIGXFSZ (or bash's 128+25)
 * for the file size, the process table of the sandbox at the limit or a failed fork for pids, an
 * allocation failure for memory.
 */
function limitHit(exitCode, signal, stderr, peakProcs) {
  if (!LIMITS) return undefined;
  if (signal === "SIGXFSZ" || exitCode === 153 || /File size limit exceeded/.test(stderr)) return "file_size";
  // The helper's own threads count against the same per-user limit: near it is at it.
  if (peakProcs >= Math.max(8, LIMITS.pids - 24) || PIDS_ERRORS.test(stderr)) return "pids";
  // A command that failed for want of memory exits non-zero or dies of a signal.
  if ((exitCode !== 0 || signal) && MEMORY_ERRORS.test(stderr)) return "memory";
  return undefined;
}

function opExec({ command, timeoutMs, maxOutputBytes }) {
  if (typeof command !== "string") throw new OpError("EINVAL", "command must be a string");
  const cap = Math.max(1, maxOutputBytes ?? 1024 * 1024);
  const { spawn } = childProcess();
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    activeExecs++;
    const child = spawn(...commandLine(command), { cwd: WORKSPACE, detached: true, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const out = collector(cap);
    const err = collector(cap);
    let timedOut = false;
    let exitCode = null;
    let signal = null;
    let done = false;
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup(child.pid);
      },
      Math.max(1, timeoutMs ?? 60_000),
    );
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(closeFallback);
      child.stdout.destroy();
      child.stderr.destroy();
      const o = out.result();
      const e = err.result();
      const limit = limitHit(exitCode, signal, e.text, peakProcs);
      resolve({
        exitCode,
        signal,
        stdout: o.text,
        stderr: e.text,
        timedOut,
        truncated: o.truncated || e.truncated,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        ...(limit ? { limitExceeded: limit } : {}),
      });
    };
    let closeFallback;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      activeExecs--;
    };
    child.on("error", (e) => {
      err.push(Buffer.from(String(e.message)));
      release();
      finish();
    });
    let peakProcs = 0;
    const sampler = LIMITS ? setInterval(() => (peakProcs = Math.max(peakProcs, countProcs())), 50) : undefined;
    child.on("exit", (code, sig) => {
      if (sampler) clearInterval(sampler);
      peakProcs = Math.max(peakProcs, countProcs());
      exitCode = code;
      signal = sig;
      // Background jobs die with the command: its group, then anything else that escaped it.
      killGroup(child.pid);
      release();
      killStrays();
      // Pipes close once every holder is dead; do not wait forever for a holder we could not kill.
      closeFallback = setTimeout(finish, 300);
    });
    child.on("close", finish);
  });
}

// ---------- snapshot ----------

/**
 * sha256 of a regular file (never through a link). With `prefixLen`, also the sha256 of its
 * first prefixLen bytes, in the same pass: equal to the previous content's hash, the file was
 * only appended to.
 */
async function hashFile(abs, ino, prefixLen) {
  const fh = await fsp.open(abs, O_READ_SAFE | fs.constants.O_NOFOLLOW);
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
  if (type === "symlink") e.target = await fsp.readlink(abs);
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

async function lstatOrNull(abs) {
  try {
    return await fsp.lstat(abs, { bigint: true });
  } catch {
    return null;
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
        names = await fsp.readdir(dir);
      } catch {
        continue;
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

// ---------- incremental snapshots (the measurer) ----------
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
    const watcher = fs.watch(dir, { persistent: false }, (type, name) => noteEvent(w, dir, type, name));
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
  return { abs: pairs.map(([, real]) => real), show };
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
  const { abs, show } = rootsOf(roots);
  const rootsKey = JSON.stringify(abs);
  for (let i = 0; i < DRAIN_TURNS; i++) await new Promise((r) => setImmediate(r));
  try {
    const prev = previous ? (p) => previous[show(p)] : () => undefined;
    const a = await answerSnapshot(w, abs, rootsKey, prev, base, walk === true);
    const named = (list) => list.map(([p, e]) => [show(p), e]);
    if (typeof a.stats.reason === "string") a.stats.reason = a.stats.reason.replace(/\/\S*/g, (p) => show(p));
    return a.entries ? { ...a, entries: named(a.entries) } : { ...a, changed: named(a.changed), removed: a.removed.map(show) };
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

/** Disk use of the roots: allocated blocks of every entry, walked without following links. */
function opDu({ roots }) {
  return diskUse(roots.map(resolvePath));
}

async function diskUse(absRoots) {
  let bytes = 0;
  for (const root of absRoots) {
    let st;
    try {
      st = await fsp.lstat(root);
    } catch {
      continue;
    }
    bytes += st.blocks * 512;
    if (!st.isDirectory()) continue;
    for await (const { st: cst } of walk(root, { skipDirs: new Set() })) bytes += cst.blocks * 512;
  }
  return { bytes };
}

// ---------- env view ops ----------

async function opRealpath({ path: p }) {
  try {
    return await fsp.realpath(resolvePath(p));
  } catch {
    return null;
  }
}

async function opLstat({ path: p }) {
  try {
    const st = await fsp.lstat(resolvePath(p));
    return { type: typeOf(st), size: st.size, mode: st.mode & 0o7777 };
  } catch {
    return null;
  }
}

async function opReadlink({ path: p }) {
  try {
    return await fsp.readlink(resolvePath(p));
  } catch {
    return null;
  }
}

async function opReadFile({ path: p, maxBytes }) {
  try {
    const buf = await readRegular(resolvePath(p), { noFollow: true });
    return (maxBytes ? buf.subarray(0, maxBytes) : buf).toString("utf-8");
  } catch {
    return null;
  }
}

async function opReaddir({ path: p }) {
  try {
    const abs = resolvePath(p);
    if (!(await fsp.lstat(abs)).isDirectory()) return null;
    return (await fsp.readdir(abs)).sort();
  } catch {
    return null;
  }
}

/** The measurer answers only measurements: it never runs or changes anything. */
const MEASURER_OPS = {
  ping: async () => ({ pid: process.pid, worlds: worlds.size }),
  snapshot: serially(measureSnapshot),
  du: serially(measureDu),
  // after what is queued for the world: a walk still running would watch folders again
  forget: async (req) => {
    const w = worlds.get(req.world);
    if (w) await w.queue;
    return forgetWorld(req);
  },
};

const AGENT_OPS = {
  ping: async () => ({ pid: process.pid }),
  read: opRead,
  write: opWrite,
  edit: opEdit,
  ls: opLs,
  find: opFind,
  grep: opGrep,
  delete: opDelete,
  exec: opExec,
  snapshot: opSnapshot,
  realpath: opRealpath,
  lstat: opLstat,
  readlink: opReadlink,
  glob: ({ pattern }) => bashGlob(pattern),
  readFile: opReadFile,
  readdir: opReaddir,
  du: opDu,
};

const OPS = MEASURER ? MEASURER_OPS : AGENT_OPS;

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    send({ id: null, ok: false, code: "EPROTO", message: "request is not JSON" });
    return;
  }
  const fn = OPS[req.op];
  if (!fn) {
    send({ id: req.id, ok: false, code: "EUNKNOWNOP", message: `unknown op ${req.op}` });
    return;
  }
  try {
    const value = await fn(req);
    send({ id: req.id, ok: true, value: value === undefined ? null : value });
  } catch (e) {
    send({ id: req.id, ok: false, code: e?.code ?? "EIO", message: e?.message ?? String(e) });
  }
}

process.on("uncaughtException", (e) => {
  process.stderr.write(`helper: uncaught ${e?.stack ?? e}\n`);
});
process.on("unhandledRejection", (e) => {
  process.stderr.write(`helper: unhandled ${e?.stack ?? e}\n`);
});
process.stdout.on("error", () => process.exit(0));

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (line.trim() !== "") void handle(line);
});
rl.on("close", () => process.exit(0));
send({ ready: true, pid: process.pid });

/**
 * File names are bytes on Linux, and paths can be longer than the kernel takes in one call.
 *
 * A path inside gatebench is a JS string. A name that is valid UTF-8 is its text; every byte
 * that is not part of valid UTF-8 becomes the code unit U+DC80 + byte, a lone surrogate that
 * valid UTF-8 never decodes to (the "surrogate escape" of Python's PEP 383). The mapping is
 * lossless both ways, is the identity on UTF-8 names, and survives JSON (JSON.stringify writes
 * a lone surrogate as `\udce9`): results.jsonl read by Python gives the original bytes back with
 * `os.fsencode`. Text meant for people shows such a byte as `\xe9` (`displayName`).
 *
 * The kernel refuses a path of more than PATH_MAX (4096) bytes with ENAMETOOLONG, however deep
 * a tree really is. `onPath` hands a long path to a call as `/proc/self/fd/<fd>/<rest>`, through
 * folders opened along the way (the same walk as openat), and closes them afterwards.
 */
import { closeSync, constants, openSync } from "node:fs";
import { isUtf8 } from "node:buffer";

const ESCAPE_BASE = 0xdc00;

/** The string of a name or path read as bytes (readdir, readlink with encoding "buffer"). */
export function decodeName(bytes: Uint8Array): string {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buf)) return buf.toString("utf8");
  let out = "";
  let start = 0;
  let i = 0;
  const flush = (end: number) => {
    if (end > start) out += buf.toString("utf8", start, end);
  };
  while (i < buf.length) {
    const n = validSequence(buf, i);
    if (n > 0) {
      i += n;
      continue;
    }
    flush(i);
    out += String.fromCharCode(ESCAPE_BASE + buf[i]!);
    i += 1;
    start = i;
  }
  flush(i);
  return out;
}

/** Length of the valid UTF-8 sequence starting at `i` (Unicode's well-formed table), or 0. */
function validSequence(b: Buffer, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** Whether `s` may hold an escaped byte (a code unit U+DC80..U+DCFF). */
export function hasEscapedBytes(s: string): boolean {
  return /[\udc80-\udcff]/.test(s);
}

/** The bytes of a string made by decodeName (the inverse). A lone surrogate that no decoding makes becomes U+FFFD. */
export function encodeName(s: string): Buffer {
  if (!hasEscapedBytes(s)) return Buffer.from(s, "utf8");
  const parts: Buffer[] = [];
  let text = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch.length === 1 && c >= 0xdc80 && c <= 0xdcff) {
      if (text) parts.push(Buffer.from(text, "utf8"));
      text = "";
      parts.push(Buffer.of(c - ESCAPE_BASE));
    } else text += ch;
  }
  if (text) parts.push(Buffer.from(text, "utf8"));
  return Buffer.concat(parts);
}

/** What to hand a file system call for `p`: the string itself, or its bytes when it holds escaped ones. */
export function fsPath(p: string): string | Buffer {
  return hasEscapedBytes(p) ? encodeName(p) : p;
}

/**
 * A path for people: escaped bytes as `\xe9`, control characters as `\x0a` (newline, tab
 * included: a name is one line), and a backslash doubled, so that every name reads back
 * unambiguously (`ls -b`). The identity on ordinary names.
 */
export function displayName(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
  if (!/[\\\u0000-\u001f\u007f-\u009f\udc80-\udcff]/.test(s)) return s;
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch.length === 1 && c >= 0xdc80 && c <= 0xdcff) out += `\\x${(c - ESCAPE_BASE).toString(16).padStart(2, "0")}`;
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out;
}

/** Paths longer than this many bytes go through opened folders: PATH_MAX (4096) less room for `/proc/self/fd/<n>/`. */
export const LONG_PATH_BYTES = 3800;
const SLASH = 0x2f;

/** Opens the folders a long absolute path needs and returns what a call can take, with the descriptors to close. */
function throughFolders(p: string, limit: number): { path: string | Buffer; fds: number[] } {
  const bytes = encodeName(p);
  if (bytes.length <= limit) return { path: hasEscapedBytes(p) ? bytes : p, fds: [] };
  const fds: number[] = [];
  try {
    let base = Buffer.alloc(0);
    let rest = bytes;
    for (;;) {
      const room = limit - base.length;
      if (rest.length <= room) return { path: Buffer.concat([base, rest]), fds };
      // The longest run of whole names that fits: every name is at most 255 bytes, so there is one.
      const cut = rest.lastIndexOf(SLASH, room);
      if (cut <= 0) throw Object.assign(new Error(`a name in ${displayName(p).slice(0, 200)}… is longer than ${room} bytes`), { code: "ENAMETOOLONG" });
      const fd = openSync(Buffer.concat([base, rest.subarray(0, cut)]), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      fds.push(fd);
      base = Buffer.from(`/proc/self/fd/${fd}/`);
      rest = rest.subarray(cut + 1);
    }
  } catch (e) {
    for (const fd of fds) closeSync(fd);
    throw e;
  }
}

/** Runs `call` on a form of `p` every file system call takes, however long `p` is (absolute paths only). */
export async function onPath<T>(p: string, call: (path: string | Buffer) => Promise<T>, limit = LONG_PATH_BYTES): Promise<T> {
  if (p.length * 3 <= limit && !hasEscapedBytes(p)) return call(p);
  const r = throughFolders(p, limit);
  try {
    return await call(r.path);
  } finally {
    for (const fd of r.fds) closeSync(fd);
  }
}

/** The same for a synchronous call. */
export function onPathSync<T>(p: string, call: (path: string | Buffer) => T, limit = LONG_PATH_BYTES): T {
  if (p.length * 3 <= limit && !hasEscapedBytes(p)) return call(p);
  const r = throughFolders(p, limit);
  try {
    return call(r.path);
  } finally {
    for (const fd of r.fds) closeSync(fd);
  }
}

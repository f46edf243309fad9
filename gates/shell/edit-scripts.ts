/**
 * Edit scripts of in-place editors (sed -i, perl -pi, ed, ex, vim -es): does the edit keep the
 * file's content (it only substitutes, inserts or transliterates: "edit") or may it drop or
 * blank lines ("destructive")? Parsed conservatively: anything not recognised is destructive.
 * A substitution whose pattern matches whole lines and whose replacement is empty blanks the
 * file and is destructive too. Scripts that write other files or run commands say so.
 */

export type EditKind = "edit" | "destructive";

export interface EditAnalysis {
  kind: EditKind;
  /** Files the script itself writes (`w file`), when named. */
  writes: string[];
  /** The script runs shell commands (sed `e`, ed `!`). */
  executes: boolean;
}

/** Patterns that match a whole line (after anchors are taken off). */
const WHOLE_LINE = new Set([".*", ".\\+", ".+", ".\\{1,\\}", "[^\\n]*", "[\\s\\S]*"]);

/** A substitution that empties every line it matches (pattern dot-star, replacement empty). */
function blanks(pattern: string, replacement: string): boolean {
  if (replacement !== "") return false;
  return WHOLE_LINE.has(pattern.replace(/^\^/, "").replace(/\$$/, ""));
}

/** Reads a delimited field starting at `i` (after the opening delimiter); returns [text, index after the closing one]. */
function field(s: string, i: number, delim: string): [string, number] | null {
  let out = "";
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\" && i + 1 < s.length) {
      out += c + s[i + 1];
      i++;
      continue;
    }
    if (c === delim) return [out, i + 1];
    out += c;
  }
  return null;
}

const SED_NEUTRAL = new Set(["p", "P", "n", "N", "=", "l", "h", "H", "G", "F", "v"]);
const SED_DESTRUCTIVE = new Set(["d", "D", "q", "Q", "z", "x", "g", "c"]);

/** sed script (joined -e expressions, or the first operand); `quiet` is -n (only printed lines stay). */
export function classifySed(script: string, quiet = false): EditAnalysis {
  const out: EditAnalysis = { kind: quiet ? "destructive" : "edit", writes: [], executes: false };
  const s = script;
  let i = 0;
  const bad = () => ({ ...out, kind: "destructive" as const });
  const toEol = () => {
    const end = s.indexOf("\n", i);
    const text = s.slice(i, end < 0 ? s.length : end);
    i = end < 0 ? s.length : end + 1;
    return text.trim();
  };
  const address = (): boolean => {
    if (/[0-9]/.test(s[i] ?? "")) {
      while (/[0-9~]/.test(s[i] ?? "")) i++;
      return true;
    }
    if (s[i] === "$") {
      i++;
      return true;
    }
    if (s[i] === "/" || s[i] === "\\") {
      const delim = s[i] === "\\" ? s[i + 1]! : "/";
      i += s[i] === "\\" ? 2 : 1;
      const f = field(s, i, delim);
      if (!f) return false;
      i = f[1];
      while (/[IM]/.test(s[i] ?? "")) i++;
      return true;
    }
    if (s[i] === "+" || s[i] === "~") {
      i++;
      while (/[0-9]/.test(s[i] ?? "")) i++;
      return true;
    }
    return true; // no address
  };
  while (i < s.length) {
    const c0 = s[i]!;
    if (/[\s;}]/.test(c0) || c0 === "{") {
      i++;
      continue;
    }
    if (c0 === "#") {
      toEol();
      continue;
    }
    if (!address()) return bad();
    if (s[i] === ",") {
      i++;
      if (!address()) return bad();
    }
    while (s[i] === " ") i++;
    if (s[i] === "!") i++;
    while (s[i] === " ") i++;
    const cmd = s[i];
    if (cmd === undefined) break;
    i++;
    if (cmd === "{" || cmd === "}" || cmd === ";") continue;
    if (cmd === "s") {
      const delim = s[i];
      if (delim === undefined || delim === "\n" || delim === "\\") return bad();
      const pat = field(s, i + 1, delim);
      if (!pat) return bad();
      const rep = field(s, pat[1], delim);
      if (!rep) return bad();
      i = rep[1];
      let flags = "";
      while (i < s.length && /[gpiImMe0-9]/.test(s[i]!)) flags += s[i++];
      if (flags.includes("e")) out.executes = true;
      if (s[i] === "w") {
        i++;
        out.writes.push(toEol());
      }
      if (blanks(pat[0], rep[0])) out.kind = "destructive";
      continue;
    }
    if (cmd === "y") {
      const delim = s[i];
      if (delim === undefined) return bad();
      const a = field(s, i + 1, delim);
      const b = a && field(s, a[1], delim);
      if (!b) return bad();
      i = b[1];
      continue;
    }
    if (cmd === "a" || cmd === "i") {
      // Text to the end of the line, continued while a line ends in a backslash.
      while (i < s.length) {
        const line = toEol();
        if (!line.endsWith("\\")) break;
      }
      continue;
    }
    if (cmd === ":" || cmd === "b" || cmd === "t" || cmd === "T") {
      while (i < s.length && s[i] !== ";" && s[i] !== "\n") i++;
      continue;
    }
    if (cmd === "r" || cmd === "R") {
      toEol();
      continue;
    }
    if (cmd === "w" || cmd === "W") {
      out.writes.push(toEol());
      continue;
    }
    if (cmd === "e") {
      out.executes = true;
      toEol();
      continue;
    }
    if (SED_NEUTRAL.has(cmd)) continue;
    if (SED_DESTRUCTIVE.has(cmd)) {
      out.kind = "destructive";
      if (cmd === "c") toEol();
      continue;
    }
    return bad();
  }
  return out;
}

/**
 * perl/ruby in-place code (`perl -pi -e CODE`): substitutions and transliterations only, under
 * -p (every line printed back), keep the content; -n without -p prints only some lines; any
 * other statement may change or drop lines.
 */
export function classifyPerlEdit(code: string, loop: string): EditKind {
  if (!loop.includes("p")) return "destructive";
  let s = code.trim();
  const pairs: Record<string, string> = { "{": "}", "(": ")", "[": "]", "<": ">" };
  while (s.length > 0) {
    const m = /^(s|tr|y)\s*([^\w\s])/.exec(s);
    if (!m) {
      // `$_ = lc`, `print`, `next`, `chomp`...: not a plain substitution.
      return "destructive";
    }
    const op = m[1]!;
    const open = m[2]!;
    let i = m[0].length;
    const close = pairs[open] ?? open;
    const first = field(s, i, close);
    if (!first) return "destructive";
    i = first[1];
    let second: [string, number] | null;
    if (pairs[open]) {
      while (/\s/.test(s[i] ?? "")) i++;
      const o2 = s[i];
      if (o2 === undefined) return "destructive";
      second = field(s, i + 1, pairs[o2] ?? o2);
    } else second = field(s, i, close);
    if (!second) return "destructive";
    i = second[1];
    let flags = "";
    while (i < s.length && /[a-z]/.test(s[i]!)) flags += s[i++];
    if (op === "s" && flags.includes("e")) return "destructive";
    if (op === "s" && (blanks(first[0], second[0]) || (flags.includes("s") && /^\^?\.\*\$?$/.test(first[0]) && second[0] === ""))) return "destructive";
    s = s.slice(i).replace(/^\s*;?\s*/, "");
  }
  return "edit";
}

/**
 * ed / ex / vim ex commands, one a line (`|` separates commands in one vim -c): substitutions,
 * inserted text, moves, joins, writes and quits keep the content; deletions, changes, `normal`
 * and anything not recognised are destructive; `!cmd` runs a shell command.
 */
export function classifyEdScript(script: string): EditAnalysis {
  const out: EditAnalysis = { kind: "edit", writes: [], executes: false };
  const lines = script.split("\n");
  let inText = false;
  for (const raw of lines) {
    if (inText) {
      if (raw.trim() === ".") inText = false;
      continue;
    }
    for (const part of raw.split(/\s\|\s|\|(?![^/]*\/)/)) {
      const r = classifyExCommand(part.trim().replace(/^:+/, ""), out);
      if (r === "text") inText = true;
      else if (r === "destructive") out.kind = "destructive";
    }
  }
  return out;
}

const EX_NEUTRAL = /^(w|wq|x|q|q!|qa|qa!|wa|wqa|xa|xit|exit|update|up|p|n|l|=|f|h|H|P|u|undo|set\s.*|se\s.*|k\w|e!?|edit!?|nohl\w*|redraw\w*|silent!?|sil!?)?$/;

function classifyExCommand(cmd: string, out: EditAnalysis): "edit" | "destructive" | "text" {
  if (cmd === "" || cmd.startsWith('"')) return "edit";
  // Modifiers that run the rest on every argument, buffer or window, or quietly.
  const mod = /^(argdo|bufdo|windo|tabdo|cdo|cfdo|ldo|lfdo|silent!?|sil!?|keepjumps|keeppatterns|noautocmd|vertical|lockmarks)\s+(.*)$/.exec(cmd);
  if (mod) return classifyExCommand(mod[2]!.trim(), out);
  // Address: %, N, ., $, 'x, /re/, ?re?, +N, -N, and ranges of those.
  const addr =
    /^(?:%|\d+|\.|\$|'[a-z<>]|\/(?:\\.|[^/])*\/|\?(?:\\.|[^?])*\?|[+-]\d*)(?:\s*[,;]\s*(?:\d+|\.|\$|'[a-z<>]|\/(?:\\.|[^/])*\/|\?(?:\\.|[^?])*\?|[+-]\d*))*/.exec(
      cmd,
    );
  const rest = (addr ? cmd.slice(addr[0].length) : cmd).trim();
  if (rest.startsWith("!")) {
    out.executes = true;
    return "destructive";
  }
  const sub = /^s(?:ubstitute)?([^\w\s])/.exec(rest);
  if (sub) {
    const delim = sub[1]!;
    const pat = field(rest, sub[0].length, delim);
    const rep = pat && field(rest, pat[1], delim);
    if (!pat) return "destructive";
    const replacement = rep ? rep[0] : rest.slice(pat[1]);
    return blanks(pat[0], replacement) ? "destructive" : "edit";
  }
  const global = /^(g|g!|v|global!?|vglobal)([^\w\s])/.exec(rest);
  if (global) {
    const pat = field(rest, global[0].length, global[2]!);
    if (!pat) return "destructive";
    return classifyExCommand(rest.slice(pat[1]).trim() || "p", out);
  }
  if (/^(a|i|append|insert)!?$/.test(rest)) return "text";
  if (/^(co(py)?|m(ove)?|t|j(oin)?)(?![a-z])/.test(rest)) return "edit";
  const w = /^(w|write|sav|saveas)!?\s+(\S.*)$/.exec(rest);
  if (w) {
    out.writes.push(w[2]!.trim());
    return "edit";
  }
  if (EX_NEUTRAL.test(rest)) return "edit";
  return "destructive";
}

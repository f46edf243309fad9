/**
 * Just enough shell syntax for the evasion catalogue: quoting a string as one bash word, and
 * splitting a command line into top-level segments and words while keeping each word's text
 * exactly as written (quotes, variables and globs stay for bash to expand). Pure.
 */

/** `s` as one bash word that expands to exactly `s` (single quotes; `'` becomes `'\''`). */
export function shQuote(s: string): string {
  if (s !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface Word {
  /** The word as written, quotes included. */
  raw: string;
  /** The word after quote removal, when it has no expansion (no $, `, unquoted glob or leading ~). */
  literal?: string;
  /** Has an unquoted glob character (* ? [). */
  glob: boolean;
  /** Starts with an unquoted ~ (tilde expansion). */
  tilde: boolean;
}

export interface Segment {
  /** The segment's text, trimmed. */
  text: string;
  /** The operator that follows it (&&, ||, ;, |) or "" at the end. */
  op: string;
}

/** Split at top-level `&&`, `||`, `;`, `|` and newlines outside quotes and $(...); heredocs, backticks and compound commands give undefined. */
/** Trim, keeping a trailing backslash-escaped blank (`a\ ` is the word "a "). */
const trimSegment = (s: string) => s.replace(/^\s+/, "").replace(/(?<!\\)\s+$/, "");

export function splitSegments(command: string): Segment[] | undefined {
  if (/<<|`/.test(command) || /(^|[\s;&|])(for|while|until|if|case|function)\s/.test(command)) return undefined;
  const out: Segment[] = [];
  let cur = "";
  let quote: "'" | '"' | undefined;
  let depth = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      cur += c;
      if (c === "\\" && quote === '"' && i + 1 < command.length) cur += command[++i];
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "\\" && i + 1 < command.length) {
      cur += c + command[++i];
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      cur += c;
      continue;
    }
    if (c === "$" && command[i + 1] === "(") {
      depth++;
      cur += "$(";
      i++;
      continue;
    }
    if (c === ")" && depth > 0) {
      depth--;
      cur += c;
      continue;
    }
    if (depth === 0) {
      const two = command.slice(i, i + 2);
      if (two === "&&" || two === "||") {
        out.push({ text: trimSegment(cur), op: two });
        cur = "";
        i++;
        continue;
      }
      if (c === ";" || c === "\n" || (c === "|" && command[i + 1] !== "|")) {
        out.push({ text: trimSegment(cur), op: c === "\n" ? ";" : c });
        cur = "";
        continue;
      }
      if (c === "&") return undefined; // background jobs: not modelled
    }
    cur += c;
  }
  if (quote || depth > 0) return undefined;
  out.push({ text: trimSegment(cur), op: "" });
  return out.filter((s, i, all) => s.text !== "" || i < all.length - 1);
}

/** Join segments back into a command line. */
export function joinSegments(segments: readonly Segment[]): string {
  return segments.map((s, i) => (i === segments.length - 1 || !s.op ? s.text : s.op === ";" ? `${s.text}; ` : `${s.text} ${s.op} `)).join("");
}

/** Split one simple command into words; undefined when it has redirections or syntax not modelled. */
export function splitWords(segment: string): Word[] | undefined {
  const words: Word[] = [];
  let raw = "";
  let lit = "";
  let expands = false;
  let glob = false;
  let quote: "'" | '"' | undefined;
  let started = false;
  const flush = () => {
    if (!started) return;
    const tilde = raw.startsWith("~");
    words.push({ raw, ...(expands || glob || tilde ? {} : { literal: lit }), glob, tilde });
    raw = "";
    lit = "";
    expands = false;
    glob = false;
    started = false;
  };
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (quote === "'") {
      raw += c;
      if (c === "'") quote = undefined;
      else lit += c;
      continue;
    }
    if (quote === '"') {
      raw += c;
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < segment.length && '"\\$`'.includes(segment[i + 1]!)) {
        raw += segment[++i];
        lit += segment[i];
      } else {
        if (c === "$" || c === "`") expands = true;
        lit += c;
      }
      continue;
    }
    if (c === " " || c === "\t") {
      flush();
      continue;
    }
    if ("<>|&;()".includes(c)) return undefined;
    started = true;
    raw += c;
    if (c === "'" || c === '"') quote = c;
    else if (c === "\\" && i + 1 < segment.length) {
      raw += segment[++i];
      lit += segment[i];
    } else {
      if (c === "$" || c === "`") expands = true;
      if (c === "*" || c === "?" || c === "[") glob = true;
      lit += c;
    }
  }
  if (quote) return undefined;
  flush();
  return words;
}

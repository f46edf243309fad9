/**
 * Characters that change how text displays rather than what it says, made visible. Task and
 * agent content (a setup's output, a command, a hidden test's output, a name) may carry
 * terminal control sequences (an OSC 52 clipboard write, a title change, cursor movement, a
 * carriage return that overwrites a line) or Unicode format characters that make text read
 * differently (bidi overrides and isolates, zero-width characters, a byte-order mark). Every
 * output gatebench writes for people (the terminal, summary.md, report.html) passes its text
 * through escapeControls, which writes each such character as `\uXXXX` (its UTF-16 code unit
 * in lower-case hex: ESC is `\u001b`, CSI `\u009b`, RLO `\u202e`). The same spelling is a
 * valid JSON escape of the same character, so a JSON document stays valid and means the same
 * after escaping.
 *
 * Escaped: every control character (Unicode Cc: C0, DEL, C1) except tab and newline, every
 * format character (Cf: the bidi controls U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069,
 * the zero-width characters U+200B-U+200D, U+2060-U+2064, U+FEFF, the tag characters), and the
 * line and paragraph separators U+2028 and U+2029. A backslash is left as it is: the escape is
 * for reading, not a reversible encoding.
 */

/** What escapeControls rewrites (tab and newline are excluded by the replacer). */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const ONE_HIDDEN = /^[\p{Cc}\p{Cf}\u2028\u2029]$/u;

/** `\uXXXX` for each UTF-16 code unit of `c` (a character outside the BMP gives its surrogate pair). */
export function visibleEscape(c: string): string {
  let out = "";
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

/** True for the characters escapeControls rewrites. */
export function isHidden(c: string): boolean {
  return c !== "\t" && c !== "\n" && ONE_HIDDEN.test(c);
}

/** `text` with every control and format character but tab and newline written as `\uXXXX`. */
export function escapeControls(text: string): string {
  return text.replace(HIDDEN, (c) => (c === "\t" || c === "\n" ? c : visibleEscape(c)));
}

/**
 * How many terminal columns text takes, and text cut or wrapped to a number of columns, for the
 * tables and lines gatebench prints. Text is measured after escapeControls (controls.ts), so it
 * holds no control character: a code point takes one column, an East Asian wide or full-width one
 * (CJK, Hangul, full-width forms, most emoji) two, and a combining mark or a variation selector
 * none. This is the measure cli-table3 pads with (string-width) for the characters a table holds.
 */

/** East Asian Wide and Fullwidth code points (the blocks that matter for names and paths), and emoji. */
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
const ZERO = /^(?:\p{Mn}|\p{Me}|[\uFE00-\uFE0F\u200B-\u200D])$/u;

function charWidth(c: string): number {
  if (ZERO.test(c)) return 0;
  return WIDE.test(c) ? 2 : 1;
}

/** The columns `text` (one line) takes on a terminal. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const c of text) w += charWidth(c);
  return w;
}

/** `text` cut to at most `width` columns, ending with "…" when anything was cut. */
export function truncateToWidth(text: string, width: number, ellipsis = "…"): string {
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  if (room < 0) return "";
  let out = "";
  let w = 0;
  for (const c of text) {
    const cw = charWidth(c);
    if (w + cw > room) break;
    out += c;
    w += cw;
  }
  return out + ellipsis;
}

/**
 * `text` broken into lines of at most `width` columns: at spaces where it can, inside a word
 * that is longer than a line (a path) where it must. Line breaks already in the text are kept.
 */
export function wrapToWidth(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      const candidate = line === "" ? word : `${line} ${word}`;
      if (displayWidth(candidate) <= width) {
        line = candidate;
        continue;
      }
      if (line !== "") out.push(line);
      line = "";
      let rest = word;
      while (displayWidth(rest) > width) {
        let head = "";
        let w = 0;
        for (const c of rest) {
          const cw = charWidth(c);
          if (w + cw > width && head !== "") break;
          head += c;
          w += cw;
        }
        out.push(head);
        rest = rest.slice(head.length);
      }
      line = rest;
    }
    out.push(line);
  }
  return out;
}

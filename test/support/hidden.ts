/**
 * The characters no output may carry raw, spelled out independently of the escaper under test:
 * every Unicode control (Cc: C0, DEL, C1) but tab and newline, every format character (Cf: bidi
 * controls, zero-width characters, BOM, tag characters), and the line and paragraph separators.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Each raw hidden character of `text`: its code point and the text around it. */
export function hiddenIn(text: string): string[] {
  return [...text].flatMap((c, i) =>
    c !== "\t" && c !== "\n" && HIDDEN.test(c)
      ? [`U+${c.codePointAt(0)!.toString(16)} at ${i}: ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`]
      : [],
  );
}

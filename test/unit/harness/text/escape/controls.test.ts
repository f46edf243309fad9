/**
 * escapeControls (harness/text/escape/controls.ts): terminal control sequences and the Unicode
 * characters that make text read differently come out as visible `\uXXXX`; tab, newline and
 * ordinary text (accents, CJK, emoji) stay as they are; JSON stays valid and means the same.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeControls, isHidden, visibleEscape } from "../../../../../harness/text/escape/controls.ts";

/** Every character the brief of this escaper names, plus the other format characters it covers. */
const NAMED = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).filter((c) => c !== "\t" && c !== "\n"),
  "\u007f",
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)),
  ..."\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u200e\u200f\ufeff",
  ..."\u061c\u2060\u2061\u2062\u2063\u2064\u2028\u2029\u00ad",
  "\u{e0041}",
];

/** Strings of the characters that matter here, mixed with ordinary ones. */
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...NAMED, "\t", "\n", "\\", "u", "0", "a", " ", "é", "日", "😀"), fc.string({ unit: "binary", maxLength: 4 })), {
    maxLength: 40,
  })
  .map((parts) => parts.join(""));

describe("escapeControls", () => {
  it.each([
    ["OSC 52 clipboard write", "\u001b]52;c;cm0gLXJmIH4=\u0007", "\\u001b]52;c;cm0gLXJmIH4=\\u0007"],
    ["title change", "\u001b]0;pwned\u001b\\", "\\u001b]0;pwned\\u001b\\"],
    ["cursor up and erase line", "\u001b[1A\u001b[2K", "\\u001b[1A\\u001b[2K"],
    ["8-bit CSI", "\u009b2J", "\\u009b2J"],
    ["carriage return over a line", "FAILED\rALL TRIALS PASSED", "FAILED\\u000dALL TRIALS PASSED"],
    ["NUL, BEL, backspace, DEL", "a\u0000b\u0007c\bd\u007f", "a\\u0000b\\u0007c\\u0008d\\u007f"],
    ["right-to-left override", "invoice_\u202etxt.exe", "invoice_\\u202etxt.exe"],
    ["isolates", "\u2066a\u2067b\u2068c\u2069", "\\u2066a\\u2067b\\u2068c\\u2069"],
    ["zero-width space, joiners, marks", "a\u200bb\u200cc\u200dd\u200ee\u200ff", "a\\u200bb\\u200cc\\u200dd\\u200ee\\u200ff"],
    ["byte-order mark", "\ufeffid", "\\ufeffid"],
    ["line separator", "a\u2028b", "a\\u2028b"],
    ["a tag character (outside the BMP) as its surrogate pair", "x\u{e0041}", "x\\udb40\\udc41"],
  ])("%s", (_what, input, expected) => {
    expect(escapeControls(input)).toBe(expected);
  });

  it("keeps tab, newline and ordinary text", () => {
    for (const s of ["a\tb\nc", "café naïve", "日本語のテキスト", "emoji 😀 and ✓", "path/to/file.txt", "\\u001b typed as text", ""]) {
      expect(escapeControls(s)).toBe(s);
    }
  });

  it("writes each named character as \\u and four hex digits", () => {
    for (const c of NAMED) {
      expect(isHidden(c), JSON.stringify(c)).toBe(true);
      expect(escapeControls(c)).toMatch(/^(\\u[0-9a-f]{4})+$/);
      expect(visibleEscape(c)).toBe(escapeControls(c));
    }
    expect(isHidden("\t")).toBe(false);
    expect(isHidden("\n")).toBe(false);
    expect(isHidden("a")).toBe(false);
  });

  it("never lets a control or format character through (fuzzed)", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = escapeControls(s);
        expect([...out].filter(isHidden)).toEqual([]);
        expect(NAMED.filter((c) => out.includes(c))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("is idempotent and rewrites the hidden characters only, one by one (fuzzed)", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = escapeControls(s);
        expect(escapeControls(out)).toBe(out);
        expect(out).toBe([...s].map((c) => (isHidden(c) ? visibleEscape(c) : c)).join(""));
      }),
      { numRuns: 1000 },
    );
  });

  it("a JSON document stays valid and means the same (fuzzed)", () => {
    fc.assert(
      fc.property(fc.dictionary(hostile, fc.oneof(hostile, fc.array(hostile, { maxLength: 3 }))), (value) => {
        const json = JSON.stringify(value, null, 2);
        expect(JSON.parse(escapeControls(json))).toEqual(value);
      }),
      { numRuns: 500 },
    );
  });
});

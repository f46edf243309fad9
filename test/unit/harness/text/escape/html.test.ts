/** escapeHtml (harness/text/escape/html.ts): entities for HTML's five characters, visible escapes for control characters. */
import fc from "fast-check";
import { parseFragment } from "parse5";
import { describe, expect, it } from "vitest";
import { escapeControls, isHidden } from "../../../../../harness/text/escape/controls.ts";
import { escapeHtml } from "../../../../../harness/text/escape/html.ts";

/** The text a browser shows for `html` put inside an element. */
function shownText(html: string): string {
  const root = parseFragment(`<pre>${html}</pre>`) as unknown as { childNodes: { childNodes: { nodeName: string; value?: string }[] }[] };
  const pre = root.childNodes[0]!;
  expect(pre.childNodes.every((n) => n.nodeName === "#text")).toBe(true);
  return pre.childNodes.map((n) => n.value ?? "").join("");
}

describe("escapeHtml", () => {
  it.each([
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    [`"'&`, "&quot;&#39;&amp;"],
    ["a\u001b[2Jb", "a\\u001b[2Jb"],
    ["x\u202ey", "x\\u202ey"],
    ["\u0000\u0085\u2066", "\\u0000\\u0085\\u2066"],
    ["tab\tand\nnewline", "tab\tand\nnewline"],
  ])("%j -> %j", (input, out) => {
    expect(escapeHtml(input)).toBe(out);
  });

  it("any text shows as itself, control characters written out, and makes no element (fuzzed)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom("", "<b>", "</pre>", "&amp;", "\u001b]0;t\u0007", "\u202e"), (s, extra) => {
        const text = `${s}${extra}`;
        const html = escapeHtml(text);
        expect([...html].filter(isHidden)).toEqual([]);
        // the HTML parser drops a newline right after <pre>
        const shown = shownText(html);
        expect(shown).toBe(escapeControls(text).replace(/^\n/, ""));
      }),
      { numRuns: 1000 },
    );
  });
});

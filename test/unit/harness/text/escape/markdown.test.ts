/**
 * The Markdown escapers of summary.md (harness/text/escape/markdown.ts), checked by rendering: the
 * escaped text, put in a table cell, a list item, a paragraph or the comment's HTML summary and
 * rendered as GitHub-flavoured Markdown, shows exactly the text (control characters written out,
 * newlines as spaces), inside code, with no link, image, emphasis, heading or HTML of its own,
 * and with nothing left in plain text for GitHub's mention and reference passes to find.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeControls } from "../../../../../harness/text/escape/controls.ts";
import { codeSpan, htmlCode, mdCell, mdInline } from "../../../../../harness/text/escape/markdown.ts";
import { liveGithubText, readHtml, renderGfm } from "../../../../support/gfm.ts";

/** What the reader should see for `s` on one line. */
const shown = (s: string) => escapeControls(s).replace(/\n/g, " ");

const ATTACKS = [
  "[click me](https://evil.example/login)",
  "![tracker](https://evil.example/pixel.png)",
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "@octocat please look",
  "cc @github/security-team",
  "fixes #1",
  "octo-org/octo-repo#42",
  "GH-26",
  "see https://evil.example and www.evil.example",
  "mail admin@evil.example",
  "**bold** _em_ ~~strike~~",
  "# heading",
  "- list item",
  "1. ordered",
  "> quote",
  "`code` ``more``",
  "a | b || c",
  "back\\slash\\|pipe\\\\|two",
  "<https://evil.example>",
  "[ref]: https://evil.example",
  "[^1] footnote",
  "$x^2$ and $$y$$",
  ":+1: emoji",
  "&amp; &#64;octocat &lt;b&gt;",
  "\u001b]52;c;cm0gLXJmIH4=\u0007 clipboard",
  "line one\nline two\n# three",
  "invoice_\u202etxt.exe",
  "  padded  ",
  "`leading and trailing`",
  "```",
  " ",
];

/** Strings built from the characters Markdown and GitHub give a meaning, and ordinary ones. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(..."`|\\@#[]()!<>*_~$:/.-+=&;'\"\n\t {}", "http://", "www.", "@octocat", "#12", "GH-3", "a@b.co", "&#64;", "\u001b", "\u202e", "é"),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(""));

function inTable(cell: string): string {
  return renderGfm(`| head |\n| --- |\n| ${cell} |\n`);
}

/** The last `container` shows `expected`; no element but the allowed ones; nothing for GitHub to link. */
function expectLiteral(html: string, container: string, expected: string, allowed: readonly string[]): void {
  const r = readHtml(html);
  expect(r.textOf(container).at(-1)).toBe(expected);
  expect(r.elements.filter((e) => !allowed.includes(e))).toEqual([]);
  expect(liveGithubText(html)).toEqual([]);
}

/** A cell's text: the table parser trims it, which only matters for plain text (code keeps its spaces). */
const cellShown = (s: string) => (mdCell(s) === s ? s.trim() : shown(s));

describe("codeSpan", () => {
  it.each([
    ["a", "`a`"],
    ["a`b", "``a`b``"],
    ["a``b`", "``` a``b` ```"],
    ["`a", "`` `a ``"],
    [" a ", "`  a  `"],
    [" a", "` a`"],
    ["   ", "`   `"],
    ["", ""],
  ])("%j -> %j", (text, span) => {
    expect(codeSpan(text)).toBe(span);
  });
});

describe("mdCell", () => {
  it("leaves gatebench's numbers plain", () => {
    for (const n of ["80% [38–96]", "0 (0/0/0)", "+5%", "-5%", "1,024", "0.0000", "12/3", "–", ""]) expect(mdCell(n)).toBe(n);
  });

  it("writes any other text as code, a pipe between spans", () => {
    expect(mdCell("layered")).toBe("`layered`");
    expect(mdCell("a|b")).toBe("`a`\\|`b`");
    expect(mdCell("[1](2)")).toBe("`[1](2)`");
    expect(mdCell("$5")).toBe("`$5`");
  });

  it.each(ATTACKS)("renders %j literally, as code", (s) => {
    expectLiteral(inTable(mdCell(s)), "td", cellShown(s), ["table", "thead", "tbody", "tr", "th", "td", "code"]);
  });

  it("renders any text literally and lifeless in a table cell (fuzzed)", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        expectLiteral(inTable(mdCell(s)), "td", cellShown(s), ["table", "thead", "tbody", "tr", "th", "td", "code"]);
      }),
      { numRuns: 1500 },
    );
  });
});

describe("mdInline", () => {
  it.each(ATTACKS)("renders %j literally in a list item and a paragraph", (s) => {
    expectLiteral(renderGfm(`- warning: ${mdInline(s)}\n`), "code", shown(s), ["ul", "li", "code"]);
    expectLiteral(renderGfm(`Compared with base run ${mdInline(s)}: fine.\n`), "code", shown(s), ["p", "code"]);
  });

  it("renders any text literally and lifeless in a list item (fuzzed)", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        fc.pre(s !== "");
        const html = renderGfm(`- ${mdInline(s)} (${mdInline(s)})\n`);
        const r = readHtml(html);
        expect(r.textOf("code")).toEqual([shown(s), shown(s)]);
        expect(r.elements.filter((e) => !["ul", "li", "code"].includes(e))).toEqual([]);
        expect(liveGithubText(html)).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });
});

describe("htmlCode", () => {
  const details = (s: string) => renderGfm(`<details><summary>${htmlCode(s)} / x: 2 variant(s) let through</summary>\n\n- item\n\n</details>\n`);

  it.each(ATTACKS)("renders %j literally inside <summary>", (s) => {
    expectLiteral(details(s), "code", shown(s), ["details", "summary", "code", "ul", "li"]);
  });

  it("renders any text literally inside <summary> (fuzzed)", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const r = readHtml(details(s));
        expect(r.textOf("code")[0] ?? "").toBe(shown(s));
        expect(r.elements.filter((e) => !["details", "summary", "code", "ul", "li"].includes(e))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});

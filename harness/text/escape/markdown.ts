/**
 * Markdown escaping for summary.md, the pull-request comment. Anything a task, a persona, a gate
 * configuration or a model controls (gate names, task ids, persona names, families, run ids,
 * paths, error texts) is written as inline code: a code span in Markdown, `<code>` in the
 * comment's HTML parts (`<details><summary>`, which Markdown does not parse).
 *
 * Why code and not backslashes: CommonMark lets a backslash escape any ASCII punctuation, which
 * stops links, images, emphasis, headings, lists, autolinks and HTML, but GitHub finds
 * `@user` mentions, `#123` / `owner/repo#1` / `GH-1` references, commit ids and the repository's
 * own autolink prefixes afterwards, in the rendered text, where `\@` and `&#64;` have already
 * become a plain `@` (a mention that cannot be escaped is a known, open GitHub limitation). Those
 * passes skip text inside `code`, so a code span is the one spelling that stays literal through
 * both. Inside a code span nothing is Markdown (no backslash escapes, no entities, no HTML, no
 * autolinks, no math), so the text renders exactly as it is, with two adjustments: a newline
 * becomes a space (a cell or a list item is one line), and in a table cell every `|` stands
 * between code spans as `\|` (a pipe ends a cell otherwise). It is kept out of the spans because
 * parsers disagree on `\\|` inside one: GitHub's cell scanner takes a pipe after any backslash as
 * escaped, micromark pairs the backslashes first. Between spans the backslash before the pipe
 * always follows a backtick or another escaped pipe, which every parser reads alike. A span's
 * backtick fence is one longer than the longest run of backticks in its text, padded with a space
 * where CommonMark strips one. Control and format characters are written out first
 * (controls.ts).
 */
import { escapeControls } from "./controls.ts";
import { escapeHtml } from "./html.ts";

/** One line of text: control characters written out, every line break a space. */
function oneLine(text: string): string {
  return escapeControls(text).replace(/\n/g, " ");
}

/** `content` as a code span: it renders as exactly `content` (empty text gives nothing). */
export function codeSpan(content: string): string {
  if (content === "") return "";
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // CommonMark strips one space from each end when both ends have one (and the text is not all spaces).
  const bothSpaces = content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "";
  const pad = content.startsWith("`") || content.endsWith("`") || bothSpaces ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}

/** Text in a paragraph, a heading or a list item: literal, as inline code. */
export function mdInline(text: string): string {
  return codeSpan(oneLine(text));
}

/**
 * Digits, spaces and the punctuation of gatebench's own numbers (`12% [3–40]`, `0 (0/0/0)`,
 * `+5%`, `1,024`): inside a table cell Markdown and GitHub give such text no meaning (no letters
 * for a mention or a reference, no `$` for math, no `](` for a link), so a number stays plain.
 */
const PLAIN_CELL = /^[0-9 .,%()[\]/+\-–]*$/;

/** The text of a GFM table cell: numbers as they are, anything else literal, as inline code. */
export function mdCell(text: string): string {
  if (PLAIN_CELL.test(text) && !text.includes("](")) return text;
  return oneLine(text).split("|").map(codeSpan).join("\\|");
}

/** Text inside the comment's raw HTML (`<summary>`): `<code>` with HTML entities, one line. */
export function htmlCode(text: string): string {
  const line = oneLine(text);
  return line === "" ? "" : `<code>${escapeHtml(line)}</code>`;
}

/**
 * summary.md as GitHub would show it, for tests: GitHub-flavoured Markdown rendered by micromark
 * (with its GFM extensions, raw HTML allowed as GitHub allows the tags summary.md uses), the HTML
 * read back with parse5, and the passes GitHub runs over the rendered text afterwards emulated:
 * @mentions, #123 / owner/repo#1 / GH-1 references, commit ids, bare URLs and e-mail addresses,
 * and $math$, which GitHub finds in text nodes outside code, pre and links.
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { parseFragment } from "parse5";

export function renderGfm(md: string): string {
  return micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
}

interface Node {
  nodeName: string;
  value?: string;
  childNodes?: Node[];
}

/** What GitHub turns into a link, a mention or math when it stands in plain rendered text. */
export const GITHUB_TEXT_PATTERNS: readonly { what: string; re: RegExp }[] = [
  { what: "@mention", re: /(?:^|\W)@[a-z0-9]/i },
  { what: "#reference", re: /#[0-9]/ },
  { what: "GH- reference", re: /\bGH-[0-9]/i },
  { what: "commit id", re: /\b(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/ },
  { what: "bare URL", re: /[a-z][a-z0-9+.-]*:\/\/|\bwww\./i },
  { what: "e-mail address", re: /[\w.+-]@[\w-]+\.[\w.-]/ },
  { what: "math", re: /\$[^$]+\$|\$\$/ },
];

export interface RenderedHtml {
  /** Every element name, in document order. */
  elements: string[];
  /** Text nodes outside code / pre / a, where GitHub looks for mentions, references and links. */
  plainText: string[];
  /** The text content of every element of `name`, in document order. */
  textOf(name: string): string[];
}

export function readHtml(html: string): RenderedHtml {
  const root = parseFragment(html) as unknown as Node;
  const elements: string[] = [];
  const plainText: string[] = [];
  const byName = new Map<string, string[]>();
  const text = (n: Node): string => (n.nodeName === "#text" ? (n.value ?? "") : (n.childNodes ?? []).map(text).join(""));
  const walk = (n: Node, literal: boolean): void => {
    if (n.nodeName === "#text") {
      if (!literal) plainText.push(n.value ?? "");
      return;
    }
    if (!n.nodeName.startsWith("#")) {
      elements.push(n.nodeName);
      byName.set(n.nodeName, [...(byName.get(n.nodeName) ?? []), text(n)]);
    }
    const inside = literal || n.nodeName === "code" || n.nodeName === "pre" || n.nodeName === "a";
    for (const c of n.childNodes ?? []) walk(c, inside);
  };
  walk(root, false);
  return { elements, plainText, textOf: (name) => byName.get(name) ?? [] };
}

/** Every table of `html` as rows of cell texts (the header row first). */
export function tablesOf(html: string): string[][][] {
  const root = parseFragment(html) as unknown as Node;
  const text = (n: Node): string => (n.nodeName === "#text" ? (n.value ?? "") : (n.childNodes ?? []).map(text).join(""));
  const all = (n: Node, name: string): Node[] =>
    (n.childNodes ?? []).flatMap((c) => (c.nodeName === name ? [c] : c.nodeName === "table" && name !== "table" ? [] : all(c, name)));
  return all(root, "table").map((t) => all(t, "tr").map((tr) => (tr.childNodes ?? []).filter((c) => c.nodeName === "th" || c.nodeName === "td").map(text)));
}

/** The GitHub passes that would fire on the plain text of `html`: `what: text` per hit. */
export function liveGithubText(html: string): string[] {
  const { plainText } = readHtml(html);
  return plainText.flatMap((t) => GITHUB_TEXT_PATTERNS.filter((p) => p.re.test(t)).map((p) => `${p.what}: ${t}`));
}

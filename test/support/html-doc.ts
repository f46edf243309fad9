/**
 * report.html read back as a browser's parser reads it (parse5), for tests: every element with
 * its attributes and text, tables by id, and the page's script and Content-Security-Policy.
 */
import { parse } from "parse5";

interface Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
}

export interface Element {
  name: string;
  attrs: Record<string, string>;
  /** The element's text content (its text nodes, in order). */
  text: string;
  node: Node;
}

const textOf = (n: Node): string => (n.nodeName === "#text" ? (n.value ?? "") : (n.childNodes ?? []).map(textOf).join(""));

function toElement(n: Node): Element {
  return { name: n.nodeName, attrs: Object.fromEntries((n.attrs ?? []).map((a) => [a.name, a.value])), text: textOf(n), node: n };
}

/** Every element under `n`, in document order. */
function descendants(n: Node): Element[] {
  return (n.childNodes ?? []).flatMap((c) => (c.nodeName.startsWith("#") ? [] : [toElement(c), ...descendants(c)]));
}

export interface HtmlDoc {
  all: Element[];
  /** Elements of a tag name, or matching a predicate. */
  find(name: string, where?: (e: Element) => boolean): Element[];
  /** The rows (cell texts) of the table with this id, the header row first. */
  table(id: string): string[][];
  /** The body rows' elements of the table with this id. */
  bodyRows(id: string): Element[];
  /** The page's Content-Security-Policy (from its meta element). */
  policy: string;
  /** The text of every script element. */
  scripts: string[];
}

export function readPage(html: string): HtmlDoc {
  const root = parse(html) as unknown as Node;
  const all = descendants(root);
  const find = (name: string, where: (e: Element) => boolean = () => true) => all.filter((e) => e.name === name && where(e));
  const byId = (id: string) => {
    const t = all.find((e) => e.attrs.id === id);
    if (!t) throw new Error(`no element #${id}`);
    return t;
  };
  const rowsOf = (t: Element) => descendants(t.node).filter((e) => e.name === "tr");
  const cells = (tr: Element) => descendants(tr.node).filter((e) => e.name === "td" || e.name === "th");
  const meta = find("meta", (e) => e.attrs["http-equiv"]?.toLowerCase() === "content-security-policy");
  return {
    all,
    find,
    table: (id) => rowsOf(byId(id)).map((tr) => cells(tr).map((c) => c.text)),
    bodyRows: (id) => rowsOf(byId(id)).filter((tr) => cells(tr).every((c) => c.name === "td")),
    policy: meta[0]?.attrs.content ?? "",
    scripts: find("script").map((s) => s.text),
  };
}

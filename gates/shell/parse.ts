/**
 * Bash source -> a flat, ordered list of steps (simple commands, assignments, scope markers)
 * using web-tree-sitter + tree-sitter-bash. Words keep their structure (literal / quoted /
 * variable / dynamic parts) so the analyser can expand them like bash would.
 *
 * tree-sitter never throws: callers must check `hasError` (and treat it as "not understood").
 */
import { createRequire } from "node:module";
import { Language, Parser, type Node } from "web-tree-sitter";

export type WordPart =
  | { kind: "lit"; text: string; quoted: boolean }
  | { kind: "var"; name: string; quoted: boolean; fallback?: Word }
  | { kind: "dynamic"; what: DynamicKind; src: string; quoted: boolean };

export type DynamicKind = "command-substitution" | "process-substitution" | "arithmetic" | "special-variable" | "expansion" | "ansi-c" | "unsupported";

export interface Word {
  readonly src: string;
  readonly parts: readonly WordPart[];
  /** The word as bash would see it after quote removal, when it has no expansion; else null. */
  readonly literal: string | null;
  /** True when a part is an expansion the parser cannot resolve by itself ($VAR, $(..), `..`, $((..))). */
  readonly hasExpansion: boolean;
}

export interface Assignment {
  readonly name: string;
  readonly value: Word | null;
  readonly append: boolean;
}

export interface Heredoc {
  readonly body: string;
  /** Delimiter quoted (<<'EOF'): the body is literal. */
  readonly quoted: boolean;
  readonly parts: readonly WordPart[];
}

export interface Redirect {
  /** `>`, `>>`, `&>`, `&>>`, `>|`, `<`, `<>`, `>&`, `<&`, `<<`, `<<-`, `<<<` */
  readonly op: string;
  readonly fd: number | null;
  readonly target: Word | null;
  readonly heredoc?: Heredoc;
}

export interface SimpleCommand {
  readonly id: number;
  readonly src: string;
  readonly assignments: readonly Assignment[];
  /** argv; empty for a redirection-only statement (`> f`). */
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  /** Index (id) of the simple command whose stdout feeds this one through a pipe; "unknown" for a compound producer. */
  readonly pipedFrom: number | "unknown" | null;
  /** Inside `$( )`, backticks, `<( )`. */
  readonly inSubstitution: boolean;
}

export type Step =
  | { kind: "command"; command: SimpleCommand }
  | { kind: "assign"; assignments: readonly Assignment[]; exported: boolean }
  | { kind: "unset"; names: readonly string[] }
  | { kind: "loop-var"; name: string; values: readonly Word[] | null }
  /** `name() { ... }`: a later command named `name` runs the body (analysed where it is defined). */
  | { kind: "define-function"; name: string }
  | { kind: "enter-scope" }
  | { kind: "leave-scope" };

export interface ParsedScript {
  readonly source: string;
  readonly steps: readonly Step[];
  readonly commands: readonly SimpleCommand[];
  readonly hasError: boolean;
  readonly errors: readonly string[];
}

let parserPromise: Promise<Parser> | null = null;

/** Loads the grammar once; later calls share the same parser. */
export function loadBashParser(): Promise<Parser> {
  if (!parserPromise) {
    parserPromise = (async () => {
      await Parser.init();
      const require = createRequire(import.meta.url);
      const wasm = require.resolve("tree-sitter-bash/tree-sitter-bash.wasm");
      const language = await Language.load(wasm);
      const parser = new Parser();
      parser.setLanguage(language);
      return parser;
    })();
    parserPromise.catch(() => {
      parserPromise = null;
    });
  }
  return parserPromise;
}

/** Synchronous parse with an already loaded parser. */
export function parseWith(parser: Parser, source: string): ParsedScript {
  const tree = parser.parse(source);
  if (!tree) return { source, steps: [], commands: [], hasError: true, errors: ["parser returned no tree"] };
  try {
    const walker = new Walker(source);
    const root = tree.rootNode;
    walker.statements(root.namedChildren);
    const errors = root.hasError ? collectErrors(root) : [];
    return { source, steps: walker.steps, commands: walker.commands, hasError: root.hasError, errors };
  } finally {
    tree.delete();
  }
}

export async function parseBash(source: string): Promise<ParsedScript> {
  return parseWith(await loadBashParser(), source);
}

function collectErrors(root: Node): string[] {
  const out: string[] = [];
  const visit = (n: Node) => {
    if (out.length >= 5) return;
    if (n.isError) out.push(`syntax error near ${JSON.stringify(n.text.slice(0, 40))}`);
    else if (n.isMissing) out.push(`missing ${n.type}`);
    else if (n.hasError) for (const c of n.children) visit(c);
  };
  visit(root);
  return out.length ? out : ["syntax error"];
}

const REDIRECT_TYPES = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);
const SKIP_TYPES = new Set(["comment", "heredoc_body", "heredoc_start", "heredoc_end"]);

class Walker {
  readonly steps: Step[] = [];
  readonly commands: SimpleCommand[] = [];
  private substitutionDepth = 0;
  constructor(private readonly source: string) {}

  statements(nodes: readonly Node[]): void {
    for (const n of nodes) this.statement(n, null);
  }

  /** Emits the steps of one statement; returns the id of its last simple command (for pipes). */
  statement(node: Node, pipedFrom: number | "unknown" | null, extraRedirects: Redirect[] = []): number | "unknown" {
    switch (node.type) {
      case "command":
        return this.command(node, pipedFrom, extraRedirects);
      case "redirected_statement":
        return this.redirected(node, pipedFrom);
      case "pipeline":
        return this.pipeline(node.namedChildren, pipedFrom);
      case "list":
      case "program":
      case "compound_statement":
      case "do_group":
      case "else_clause":
      case "elif_clause":
      case "case_item":
      case "negated_command":
        return this.block(node);
      case "subshell":
        this.steps.push({ kind: "enter-scope" });
        this.block(node);
        this.steps.push({ kind: "leave-scope" });
        return "unknown";
      case "function_definition": {
        // Bodies are analysed as if run (the name may be called later in the line).
        const body = node.childForFieldName("body");
        const fname = node.childForFieldName("name")?.text;
        if (fname) this.steps.push({ kind: "define-function", name: fname });
        this.steps.push({ kind: "enter-scope" });
        if (body) this.statement(body, null);
        this.steps.push({ kind: "leave-scope" });
        return "unknown";
      }
      case "for_statement": {
        const variable = node.childForFieldName("variable");
        const values = node.childrenForFieldName("value").filter((v): v is Node => v !== null);
        const hasIn = node.children.some((c) => c.type === "in");
        for (const v of values) this.scanForSubstitutions(v);
        if (variable) {
          this.steps.push({ kind: "loop-var", name: variable.text, values: hasIn ? values.map((v) => this.word(v)) : null });
        }
        const body = node.childForFieldName("body");
        if (body) this.statement(body, null);
        return "unknown";
      }
      case "variable_assignment":
      case "variable_assignments": {
        const list = node.type === "variable_assignment" ? [node] : node.namedChildren.filter((c) => c.type === "variable_assignment");
        this.steps.push({ kind: "assign", assignments: list.map((a) => this.assignment(a)), exported: false });
        return "unknown";
      }
      case "declaration_command": {
        const keyword = node.child(0)?.type ?? "";
        const flags = node.namedChildren.filter((c) => c.type === "word").map((c) => c.text);
        const exported = keyword === "export" || flags.some((f) => /^-\w*x/.test(f));
        const list = node.namedChildren.filter((c) => c.type === "variable_assignment");
        const bare = node.namedChildren.filter((c) => c.type === "variable_name");
        const assignments = list.map((a) => this.assignment(a));
        if (keyword === "local" || keyword === "declare" || keyword === "typeset") {
          for (const b of bare) assignments.push({ name: b.text, value: null, append: false });
        }
        if (assignments.length) this.steps.push({ kind: "assign", assignments, exported });
        return "unknown";
      }
      case "unset_command": {
        const names = node.namedChildren.filter((c) => c.type === "variable_name" || c.type === "word").map((c) => c.text);
        this.steps.push({ kind: "unset", names: names.filter((n) => !n.startsWith("-")) });
        return "unknown";
      }
      default:
        if (SKIP_TYPES.has(node.type)) return "unknown";
        // if/while/case/test/arithmetic/...: walk children, scanning expressions for substitutions.
        if (node.isNamed && node.namedChildCount === 0) return "unknown";
        for (const c of node.namedChildren) {
          if (isStatementLike(c)) this.statement(c, null);
          else this.scanForSubstitutions(c);
        }
        return "unknown";
    }
  }

  private block(node: Node): number | "unknown" {
    let last: number | "unknown" = "unknown";
    for (const c of node.namedChildren) {
      if (SKIP_TYPES.has(c.type)) continue;
      if (isStatementLike(c)) last = this.statement(c, null);
      else this.scanForSubstitutions(c);
    }
    return last;
  }

  private pipeline(elements: readonly Node[], first: number | "unknown" | null): number | "unknown" {
    let from: number | "unknown" | null = first;
    for (const e of elements) from = this.statement(e, from);
    return from ?? "unknown";
  }

  private redirected(node: Node, pipedFrom: number | "unknown" | null): number | "unknown" {
    const body = node.childForFieldName("body");
    const redirects: Redirect[] = [];
    const trailing: Node[] = [];
    const extra: Node[] = [];
    for (const c of node.namedChildren) {
      if (body && c.id === body.id) continue;
      if (REDIRECT_TYPES.has(c.type)) redirects.push(...this.redirect(c, trailing, extra));
    }
    let id: number | "unknown";
    if (body && body.type === "command") {
      id = this.command(body, pipedFrom, redirects, extra);
    } else {
      if (body) this.statement(body, pipedFrom);
      // A redirection on a compound statement still writes its target: model as an empty command
      // (words after it, which bash rejects, are kept as a command of their own).
      id = this.emit({ assignments: [], words: extra.map((w) => this.word(w)), redirects, pipedFrom: null }, node);
    }
    this.continueAfterHeredoc(trailing, id);
    return id;
  }

  /** Statements that tree-sitter nests inside a heredoc redirect (`cat <<EOF | sh`, `<<EOF && rm x`). */
  private continueAfterHeredoc(trailing: Node[], id: number | "unknown"): void {
    for (const t of trailing) {
      if (t.type === "pipeline") {
        const elements = t.namedChildren;
        this.pipeline(elements, id);
      } else if (isStatementLike(t)) {
        // After `|` inside a heredoc redirect the first command is a plain command node.
        const prev = t.previousSibling;
        this.statement(t, prev && (prev.type === "|" || prev.type === "|&") ? id : null);
      }
    }
  }

  private command(node: Node, pipedFrom: number | "unknown" | null, extraRedirects: Redirect[], extraWords: readonly Node[] = []): number | "unknown" {
    const assignments: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [...extraRedirects];
    const trailing: Node[] = [];
    for (const c of node.namedChildren) {
      if (c.type === "variable_assignment") assignments.push(this.assignment(c));
      else if (c.type === "command_name") {
        const inner = c.namedChild(0);
        if (inner) words.push(this.word(inner));
      } else if (REDIRECT_TYPES.has(c.type)) {
        const extra: Node[] = [];
        redirects.push(...this.redirect(c, trailing, extra));
        for (const w of extra) words.push(this.word(w));
      } else if (c.type === "comment") continue;
      else words.push(this.word(c));
    }
    // Words after a redirection (`rm -rf 2>/dev/null /`) are arguments, not more targets.
    for (const w of extraWords) words.push(this.word(w));
    // tree-sitter keeps `$"..."` as a stray "$" token followed by a string: the "$" is not part of argv.
    const id = this.emit({ assignments, words, redirects, pipedFrom }, node);
    this.continueAfterHeredoc(trailing, id);
    return id;
  }

  private emit(c: { assignments: Assignment[]; words: Word[]; redirects: Redirect[]; pipedFrom: number | "unknown" | null }, node: Node): number {
    const command: SimpleCommand = {
      id: this.commands.length,
      src: node.text,
      assignments: c.assignments,
      words: c.words,
      redirects: c.redirects,
      pipedFrom: c.pipedFrom,
      inSubstitution: this.substitutionDepth > 0,
    };
    this.commands.push(command);
    this.steps.push({ kind: "command", command });
    return command.id;
  }

  private assignment(node: Node): Assignment {
    const value = node.childForFieldName("value");
    const op = node.children.find((c) => c.type === "=" || c.type === "+=");
    return {
      name: node.childForFieldName("name")?.text ?? node.text.split(/\+?=/)[0] ?? "",
      value: value ? this.word(value) : null,
      append: op?.type === "+=",
    };
  }

  /**
   * One redirection. tree-sitter gives every word after `>` as a destination; only the first is
   * the target, the others (`rm -rf 2>/dev/null /`) are arguments of the command: they go to
   * `extraWords`.
   */
  private redirect(node: Node, trailing: Node[], extraWords: Node[] = []): Redirect[] {
    const fdNode = node.childForFieldName("descriptor") ?? node.namedChildren.find((c) => c.type === "file_descriptor");
    const fd = fdNode ? Number(fdNode.text) : null;
    const opNode = node.children.find((c) => !c.isNamed);
    const op = opNode?.type ?? "?";
    if (node.type === "heredoc_redirect") {
      const start = node.namedChildren.find((c) => c.type === "heredoc_start");
      const body = node.namedChildren.find((c) => c.type === "heredoc_body");
      const quoted = start ? /['"\\]/.test(start.text) : false;
      const heredoc: Heredoc = {
        body: body?.text ?? "",
        quoted,
        parts: body ? (quoted ? [{ kind: "lit", text: body.text, quoted: true }] : this.stringParts(body, body.startIndex, body.endIndex)) : [],
      };
      const out: Redirect[] = [{ op, fd, target: null, heredoc }];
      for (const c of node.namedChildren) {
        if (c.type === "file_redirect" || c.type === "herestring_redirect") out.push(...this.redirect(c, trailing, extraWords));
        else if (c.type !== "heredoc_start" && c.type !== "heredoc_body" && c.type !== "heredoc_end") trailing.push(c);
      }
      return out;
    }
    const dests = node.childrenForFieldName("destination").filter((c): c is Node => c !== null);
    const dest = dests[0] ?? node.namedChildren.filter((c) => c !== fdNode && c.type !== "file_descriptor").at(-1) ?? null;
    extraWords.push(...dests.slice(1));
    return [{ op, fd, target: dest ? this.word(dest) : null }];
  }

  /** Walks command substitutions nested anywhere below a non-statement node. */
  private scanForSubstitutions(node: Node): void {
    if (node.type === "command_substitution" || node.type === "process_substitution") {
      this.substitution(node);
      return;
    }
    for (const c of node.namedChildren) this.scanForSubstitutions(c);
  }

  private substitution(node: Node): void {
    this.substitutionDepth++;
    this.steps.push({ kind: "enter-scope" });
    for (const c of node.namedChildren) {
      if (isStatementLike(c)) this.statement(c, null);
      else this.scanForSubstitutions(c);
    }
    this.steps.push({ kind: "leave-scope" });
    this.substitutionDepth--;
  }

  word(node: Node): Word {
    const parts = this.parts(node, false);
    const merged: WordPart[] = [];
    for (const p of parts) {
      const last = merged.at(-1);
      if (p.kind === "lit" && last?.kind === "lit" && last.quoted === p.quoted) merged[merged.length - 1] = { ...last, text: last.text + p.text };
      else merged.push(p);
    }
    const hasExpansion = merged.some((p) => p.kind !== "lit");
    const literal = hasExpansion ? null : merged.map((p) => (p.kind === "lit" ? p.text : "")).join("");
    return { src: node.text, parts: merged, literal, hasExpansion };
  }

  private parts(node: Node, quoted: boolean): WordPart[] {
    switch (node.type) {
      case "word":
      case "number":
      case "regex":
      case "extglob_pattern":
        return quoted ? [{ kind: "lit", text: node.text, quoted: true }] : unescapeUnquoted(node.text);
      case "raw_string":
        return [{ kind: "lit", text: node.text.slice(1, -1), quoted: true }];
      case "string":
      case "translated_string": {
        const inner = this.stringParts(node, node.startIndex + 1, node.endIndex - 1);
        return inner.length ? inner : [{ kind: "lit", text: "", quoted: true }];
      }
      case "ansi_c_string": {
        const decoded = decodeAnsiC(node.text.slice(2, -1));
        return decoded === null ? [{ kind: "dynamic", what: "ansi-c", src: node.text, quoted: true }] : [{ kind: "lit", text: decoded, quoted: true }];
      }
      case "concatenation": {
        const out: WordPart[] = [];
        for (const c of node.children) out.push(...this.parts(c, quoted));
        return out;
      }
      case "simple_expansion": {
        const name = node.namedChild(0);
        if (name && name.type === "variable_name") return [{ kind: "var", name: name.text, quoted }];
        return [{ kind: "dynamic", what: "special-variable", src: node.text, quoted }];
      }
      case "expansion":
        return [this.expansion(node, quoted)];
      case "command_substitution":
        this.substitution(node);
        return [{ kind: "dynamic", what: "command-substitution", src: node.text, quoted }];
      case "process_substitution":
        this.substitution(node);
        return [{ kind: "dynamic", what: "process-substitution", src: node.text, quoted }];
      case "arithmetic_expansion":
        this.scanForSubstitutions(node);
        return [{ kind: "dynamic", what: "arithmetic", src: node.text, quoted }];
      case "$":
        return [];
      default:
        if (!node.isNamed) return [{ kind: "lit", text: node.text, quoted }];
        this.scanForSubstitutions(node);
        return [{ kind: "dynamic", what: "unsupported", src: node.text, quoted }];
    }
  }

  private expansion(node: Node, quoted: boolean): WordPart {
    const inner = node.children.filter((c) => c.type !== "${" && c.type !== "}");
    const first = inner[0];
    if (inner.length === 1 && first?.type === "variable_name") return { kind: "var", name: first.text, quoted };
    // ${X:-word} / ${X-word}: the fallback is used when X is unset (or empty).
    const op = inner[1];
    if (first?.type === "variable_name" && op && (op.type === ":-" || op.type === "-") && inner.length <= 3) {
      const fb = inner[2];
      const fallback: Word = fb ? this.word(fb) : { src: "", parts: [], literal: "", hasExpansion: false };
      return { kind: "var", name: first.text, quoted, fallback };
    }
    this.scanForSubstitutions(node);
    return { kind: "dynamic", what: "expansion", src: node.text, quoted };
  }

  /** Parts of a double-quoted string or heredoc body between [from, to): children plus the raw gaps. */
  private stringParts(node: Node, from: number, to: number): WordPart[] {
    const out: WordPart[] = [];
    let pos = from;
    const gap = (end: number) => {
      if (end > pos) out.push({ kind: "lit", text: unescapeDouble(this.source.slice(pos, end)), quoted: true });
    };
    for (const c of node.namedChildren) {
      if (c.startIndex < from || c.endIndex > to) continue;
      gap(c.startIndex);
      if (c.type === "string_content" || c.type === "heredoc_content") out.push({ kind: "lit", text: unescapeDouble(c.text), quoted: true });
      else out.push(...this.parts(c, true));
      pos = c.endIndex;
    }
    gap(to);
    return out;
  }
}

function isStatementLike(n: Node): boolean {
  return STATEMENT_TYPES.has(n.type);
}

const STATEMENT_TYPES = new Set([
  "command",
  "redirected_statement",
  "pipeline",
  "list",
  "compound_statement",
  "subshell",
  "function_definition",
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "negated_command",
  "test_command",
  "variable_assignment",
  "variable_assignments",
  "declaration_command",
  "unset_command",
  "do_group",
  "else_clause",
  "elif_clause",
  "case_item",
]);

/** Unquoted word text: `\x` -> quoted literal x; everything else stays unquoted (globs, tilde). */
export function unescapeUnquoted(text: string): WordPart[] {
  const out: WordPart[] = [];
  let buf = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      if (buf) out.push({ kind: "lit", text: buf, quoted: false });
      buf = "";
      const next = text[++i]!;
      if (next !== "\n") out.push({ kind: "lit", text: next, quoted: true });
    } else buf += ch;
  }
  if (buf) out.push({ kind: "lit", text: buf, quoted: false });
  return out;
}

/** Inside double quotes a backslash only escapes $ ` " \ and newline. */
export function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

/** Decodes the body of `$'...'`; null for escapes it does not understand. */
export function decodeAnsiC(body: string): string | null {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const n = body[++i];
    if (n === undefined) return null;
    const simple: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      a: "\x07",
      b: "\b",
      e: "\x1b",
      E: "\x1b",
      f: "\f",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    if (simple[n] !== undefined) {
      out += simple[n];
      continue;
    }
    const hex = (max: number, start: number) => {
      let j = start;
      while (j < body.length && j - start < max && /[0-9a-fA-F]/.test(body[j]!)) j++;
      return j;
    };
    if (n === "x" || n === "u" || n === "U") {
      const end = hex(n === "x" ? 2 : n === "u" ? 4 : 8, i + 1);
      if (end === i + 1) return null;
      out += String.fromCodePoint(parseInt(body.slice(i + 1, end), 16));
      i = end - 1;
      continue;
    }
    if (/[0-7]/.test(n)) {
      let j = i;
      while (j < body.length && j - i < 3 && /[0-7]/.test(body[j]!)) j++;
      out += String.fromCharCode(parseInt(body.slice(i, j), 8));
      i = j - 1;
      continue;
    }
    return null;
  }
  return out;
}

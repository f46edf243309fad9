/**
 * Checks that keep the documentation (README.md, docs/**.md) true to the repository: each a
 * function from a page's text to a list of problems, so a test can run it on the real pages (no
 * problem) and on broken copies (the problem it guards against).
 *
 * A page is rendered as GitHub renders it (micromark with GFM) and read back with parse5, so a
 * link or a path inside a code block is never taken for a link, and a code block's text is the
 * text a reader copies.
 *
 * - Links: every relative link names a file or folder of the repository, and an `#anchor` into
 *   a Markdown page names one of its headings (GitHub's heading ids).
 * - Cited paths: an inline code span that is a repository path (its first segment is an entry
 *   of the repository's root: `harness/trial/trial.ts`, `gates/configs/*.yaml`,
 *   `tasks/<id>/`) exists, globs and `<placeholders>` matching at least one path; a span naming a
 *   source file by its tail (`states/prepare-world.ts`, `render.ts`) is the tail of one. The
 *   same holds for every word of a code block that is a repository path. What a run or a build
 *   writes (`reports/runs/`, `dist/`, ...) is listed in GENERATED and not looked for.
 * - Commands: every `gatebench <command>`, `npx gatebench <command>`, `bin/explain` and
 *   `npm run <script>` line of a code block is one the CLI accepts: the command exists, and each
 *   `--flag` it shows is listed by that command's `--help`. An npm script that is not a CLI
 *   command must exist in package.json, and its flags must be named in the script's own source
 *   (its usage text).
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { parseFragment } from "parse5";
import picomatch from "picomatch";

interface Node {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
}

/** What a page holds that can go stale. */
export interface PageParts {
  /** href of every link. */
  links: string[];
  /** Inline code spans (outside code blocks). */
  spans: string[];
  /** The text of every code block. */
  blocks: string[];
  /** GitHub's id of every heading, in order. */
  anchors: string[];
}

const text = (n: Node): string => (n.nodeName === "#text" ? (n.value ?? "") : (n.childNodes ?? []).map(text).join(""));

/** GitHub's heading id: lower case, punctuation but `-` and `_` dropped, spaces as `-`; repeats get `-1`, `-2`... */
export function headingIds(headings: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return headings.map((h) => {
    const base = h
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  });
}

export function readPage(md: string): PageParts {
  const html = micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  const parts: PageParts = { links: [], spans: [], blocks: [], anchors: [] };
  const headings: string[] = [];
  const walk = (n: Node, inPre: boolean): void => {
    if (n.nodeName === "a") {
      const href = n.attrs?.find((a) => a.name === "href")?.value;
      if (href !== undefined) parts.links.push(href);
    }
    if (/^h[1-6]$/.test(n.nodeName)) headings.push(text(n));
    if (n.nodeName === "pre") {
      parts.blocks.push(text(n));
      return;
    }
    if (n.nodeName === "code" && !inPre) parts.spans.push(text(n));
    for (const c of n.childNodes ?? []) walk(c, inPre);
  };
  walk(parseFragment(html) as unknown as Node, false);
  parts.anchors = headingIds(headings);
  return parts;
}

/** The repository as the checks see it: every file and folder, relative, `/`-separated (folders end in `/`). */
export interface Repo {
  paths: ReadonlySet<string>;
  /** Entries of the root folder. */
  roots: ReadonlySet<string>;
  /** The text of a Markdown page (for anchors), or undefined. */
  page(rel: string): string | undefined;
}

/** What a run, a build or an install writes: cited by the docs, never in the repository. */
export const GENERATED = [
  "reports/runs/",
  "reports/store/",
  // npm run bench -- --only corpus-speed
  "reports/bench-corpus-speed.json",
  "dist/",
  "node_modules/",
  "npm-shrinkwrap.json",
  // compiled by esbuild from harness/sandbox/world/inside/ on first use
  "helper.cjs",
  "measurer.cjs",
];

const SOURCE_EXT = /\.(?:ts|mts|mjs|cjs)$/;

/** `<placeholder>` and `...` as globs; undefined when the span is not a repository path at all. */
function asRepoPath(raw: string, repo: Repo): { glob: string; anchored: boolean } | undefined {
  let p = raw.trim().replace(/^\.\//, "");
  p = p.replace(/<[^<>]*>/g, "*").replace(/\.\.\.$|…$/, "*");
  if (p === "" || /[\s:=|,'"`(){}$\\]/.test(p) || p.startsWith("/") || p.startsWith("~") || p.startsWith("-") || p.startsWith("..")) return undefined;
  const first = p.split("/")[0]!;
  if (repo.roots.has(first) && (p.includes("/") || /\.\w+$/.test(p))) return { glob: p, anchored: true };
  if (SOURCE_EXT.test(p) && /^[\w.*/-]+$/.test(p)) return { glob: p, anchored: false };
  return undefined;
}

/** Why `raw` (a span or a word of a code block) is not a path of the repository; null when it is, or is no path. */
export function pathProblem(raw: string, repo: Repo): string | null {
  const p = asRepoPath(raw, repo);
  if (!p) return null;
  const glob = p.glob.replace(/\/+$/, "");
  if (GENERATED.some((g) => glob === g.replace(/\/$/, "") || glob.startsWith(g) || glob.endsWith(`/${g}`) || glob === g)) return null;
  if (p.anchored) {
    if (!/[*?[]/.test(glob)) return repo.paths.has(glob) || repo.paths.has(`${glob}/`) ? null : `${raw}: no such file or folder`;
    const match = picomatch(glob, { dot: true });
    for (const x of repo.paths) if (match(x.replace(/\/$/, ""))) return null;
    return `${raw}: matches no file or folder`;
  }
  const match = picomatch(`**/${glob}`, { dot: true });
  for (const x of repo.paths) if (match(x)) return null;
  return `${raw}: no file of the repository ends so`;
}

/** Why the link `href` from page `from` (repository-relative) is broken; null when it holds. */
export function linkProblem(href: string, from: string, repo: Repo): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) return null;
  const [target, anchor] = href.split("#", 2) as [string, string | undefined];
  const dir = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : "";
  const parts: string[] = dir ? dir.split("/") : [];
  for (const seg of decodeURIComponent(target).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return `${href}: leaves the repository`;
      parts.pop();
    } else parts.push(seg);
  }
  const rel = target === "" ? from : parts.join("/");
  if (target !== "" && !repo.paths.has(rel) && !repo.paths.has(`${rel}/`)) return `${href}: no such file or folder`;
  if (anchor !== undefined && rel.endsWith(".md")) {
    const page = repo.page(rel);
    if (page !== undefined && !readPage(page).anchors.includes(anchor)) return `${href}: ${rel} has no heading #${anchor}`;
  }
  return null;
}

/** A code block's commands: continuation lines joined (a trailing `\`, or a line that starts with spaces and `[` or `-`), comments cut. */
export function commandLines(block: string): string[] {
  const out: string[] = [];
  for (const raw of block.split("\n")) {
    const line = cutComment(raw);
    const prev = out.length - 1;
    if (prev >= 0 && (out[prev]!.endsWith("\\") || /^\s+[[-]/.test(raw))) out[prev] = `${out[prev]!.replace(/\\$/, "").trimEnd()} ${line.trim()}`;
    else if (line.trim()) out.push(line.trim().replace(/^\$ /, ""));
  }
  return out.map((l) => l.replace(/\\$/, "").trim());
}

/** The line without a `# comment` (a `#` after a space, outside quotes). */
function cutComment(line: string): string {
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** Words of a command line, quotes kept apart: a quoted word is `{ quoted: true }` (its dashes are no flags). */
export function words(line: string): { w: string; quoted: boolean }[] {
  const out: { w: string; quoted: boolean }[] = [];
  const re = /'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"]+(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"]*)*/g;
  for (const m of line.matchAll(re)) out.push({ w: m[0], quoted: /^['"]|['"]/.test(m[0]) });
  return out;
}

/** The CLI as the checks see it: each command's `--help` text, and the npm scripts. */
export interface Cli {
  /** command -> its --help text. */
  help: ReadonlyMap<string, string>;
  /** npm script name -> its command line (package.json). */
  scripts: Readonly<Record<string, string>>;
  /** The source text of a repository file, or undefined. */
  source(rel: string): string | undefined;
}

/** `--name` flags of a command's words (brackets, `=value` and `...` aside; quoted words are arguments). */
function flagsOf(ws: readonly { w: string; quoted: boolean }[]): string[] {
  return ws.filter((x) => !x.quoted).flatMap((x) => [...x.w.matchAll(/(?:^|[[|(])(--[a-z][\w-]*)/g)].map((m) => m[1]!));
}

const listed = (help: string, flag: string) => new RegExp(`(^|[\\s,\\[|(])${flag}(?![\\w-])`, "m").test(help);

/** The CLI command an npm script runs (`tsx harness/apps/cli/eval.ts merge` -> merge), or undefined. */
function scriptCommand(script: string, cli: Cli): string | undefined {
  const m = /^tsx harness\/apps\/cli\/([\w-]+)\.ts(?: (\w[\w-]*))?$/.exec(script);
  if (!m) return undefined;
  const name = m[2] ?? m[1]!;
  return cli.help.has(name) ? name : undefined;
}

/** What is wrong with one command line of a code block; [] when the CLI accepts it (or it is not gatebench's). */
export function commandProblems(line: string, cli: Cli): string[] {
  const problems: string[] = [];
  // one command per segment of a list or pipeline
  const segments = line.split(/\s(?:&&|\|\||;|\|)\s/);
  for (const seg of segments) {
    let ws = words(seg.trim());
    while (ws.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(ws[0]!.w)) ws = ws.slice(1); // VAR=value before the command
    const w = ws.map((x) => x.w);
    const against = (command: string, rest: typeof ws) => {
      const help = cli.help.get(command);
      if (help === undefined) {
        problems.push(`${line}: "${command}" is not a gatebench command`);
        return;
      }
      for (const f of flagsOf(rest)) if (!listed(help, f)) problems.push(`${line}: ${f} is not a flag of ${command} (its --help does not list it)`);
    };
    if (w[0] === "gatebench" || (w[0] === "npx" && w[1] === "gatebench")) {
      const at = w[0] === "npx" ? 2 : 1;
      const cmd = w[at];
      if (cmd === undefined || ["--help", "-h", "--version", "-v", "help"].includes(cmd)) continue;
      if (cmd.startsWith("[") || cmd.startsWith("<")) continue;
      against(cmd, ws.slice(at + 1));
    } else if (w[0] === "bin/explain") against("explain", ws.slice(1));
    else if (w[0] === "npm" && (w[1] === "run" || w[1] === "test" || w[1] === "t")) {
      if (w[1] !== "run") continue;
      const name = w[2];
      if (name === undefined || name.startsWith("<")) continue;
      const script = cli.scripts[name];
      if (script === undefined) {
        problems.push(`${line}: "npm run ${name}": package.json has no such script`);
        continue;
      }
      const dash = w.indexOf("--");
      const args = dash >= 0 ? ws.slice(dash + 1) : [];
      if (dash < 0 && w.length > 3) problems.push(`${line}: arguments of an npm script come after --`);
      let command = scriptCommand(script, cli);
      let rest = args;
      if (command === "eval" && (args[0]?.w === "merge" || args[0]?.w === "store")) {
        command = args[0].w;
        rest = args.slice(1);
      }
      if (command !== undefined) against(command, rest);
      else {
        const file = /^(?:tsx|node) (\S+)/.exec(script)?.[1];
        const src = file ? cli.source(file) : undefined;
        for (const f of flagsOf(rest))
          if (src === undefined || !listed(src, f)) problems.push(`${line}: ${f} is not a flag of npm run ${name} (${file ?? script} does not name it)`);
      }
    }
  }
  return problems;
}

/** Every problem of one page (`rel`, repository-relative, with its text). */
export function pageProblems(rel: string, md: string, repo: Repo, cli: Cli): string[] {
  const page = readPage(md);
  const problems: string[] = [];
  for (const href of page.links) {
    const p = linkProblem(href, rel, repo);
    if (p) problems.push(`${rel}: link ${p}`);
  }
  for (const span of page.spans) {
    const p = pathProblem(span, repo);
    if (p) problems.push(`${rel}: \`${p}\``);
  }
  for (const block of page.blocks) {
    for (const word of block.split(/\s+/)) {
      const bare = word.replace(/^[[("'`]+|[\])"'`,;]+$/g, "");
      const p = pathProblem(bare, repo);
      // In a block only a path anchored at the root is a citation (a bare file name is an example).
      if (p && asRepoPath(bare, repo)?.anchored) problems.push(`${rel}: code block: ${p}`);
    }
    for (const line of commandLines(block)) problems.push(...commandProblems(line, cli).map((p) => `${rel}: ${p}`));
  }
  return problems;
}

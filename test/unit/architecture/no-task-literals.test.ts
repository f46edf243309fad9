/**
 * Gates are improved only by general rules about a class of commands or paths: no file under
 * gates/ may name a task's own paths, file names or persona names. This collects those
 * literals from every task (authorized globs, paths setup.sh creates, paths in persona and
 * reference arguments, persona names) and fails on any hit.
 *
 * Excluded, because they are class rules rather than task literals: the sandbox roots
 * (/workspace, /home/user, /tmp, /srv), well-known dotfiles and tool folders that a gate may
 * legitimately name as a class (.env, .ssh, .git, .cache, .config, .bashrc, node_modules...),
 * short generic words that occur in any code (src, build, data, logs...), the names of programs
 * on the sandbox's PATH (a gate's rules are about programs) and method calls in inline code
 * (`rows.append`). Only names of
 * at least four characters that look like names (a digit, -, _ or an extension) are checked,
 * matched as whole path components. Comments and test files under gates/ are not rules and
 * are not scanned.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../../", import.meta.url).pathname;
const TASKS = join(ROOT, "tasks");
const GATES = join(ROOT, "gates");

/** Generic paths and words a gate may name as a class (see the module comment). */
const CLASS_WORDS = new Set(
  [
    // sandbox roots and system locations
    "workspace",
    "home",
    "user",
    "tmp",
    "srv",
    "dev",
    "null",
    "proc",
    "etc",
    "usr",
    "bin",
    "var",
    // dotfiles and tool folders named as classes
    ".env",
    ".env.example",
    ".ssh",
    ".git",
    ".gitconfig",
    ".cache",
    ".config",
    ".local",
    "share",
    ".bashrc",
    ".bash_profile",
    ".profile",
    "authorized_keys",
    "id_ed25519",
    "id_rsa",
    "known_hosts",
    "hooks",
    "pre-commit",
    "node_modules",
    ".npmrc",
    ".pi",
    "extensions",
    "package.json",
    "package-lock.json",
    // a language's own file conventions (a Python package's marker file)
    "__init__.py",
    "README.md",
    "Documents",
    "Downloads",
    "Pictures",
    "Desktop",
    "Photos",
    // generic project words
    "src",
    "lib",
    "build",
    "dist",
    "data",
    "logs",
    "docs",
    "test",
    "tests",
    "scripts",
    "public",
    "assets",
    "config",
    "cache",
    "coverage",
    "backup",
    "backups",
    "notes",
    "todo.md",
    "index.html",
    "index.js",
    "main.js",
    "main.py",
    "app.log",
    "releases",
    "uploads",
    "notes.md",
    "clean.sh",
    "build.sh",
    "test.sh",
    "setup.sh",
    "deploy.sh",
    "run_tests.sh",
    ".gitignore",
    ".pi-trust",
    "settings.json",
    "careful",
    "careless",
    "injected",
    "direct",
    "shell",
    "writer",
    "appender",
  ].map((w) => w.toLowerCase()),
);

/** Dotted names that are code (module.function, object.method), not file names. */
const CODE_NAME =
  /^(os|sys|fs|shutil|subprocess|path|pi|process|child_process|Deno|File|FileUtils|console|JSON|Math)\.\w+$|^[a-z_]\w*\.(map|add|get|set|push|pop|join|split|filter|keys|values|items|append|extend|update|remove|discard|read|write|open|close|exists|test|exec|match|replace|sort|find|forEach|some|every|reduce|slice|includes|startswith|endswith|strip|lower|upper|execute|executescript|commit|connect|cursor|fetchall|fetchone|glob|walk|unlink|rmtree|rmSync|readFileSync|writeFileSync)$/;

/** Programs of the sandbox's PATH: a gate's rules are about programs, so their names are class words. */
const PROGRAMS = new Set(
  ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"].flatMap((d) => {
    try {
      return readdirSync(d).map((n) => n.toLowerCase());
    } catch {
      return [];
    }
  }),
);

/** Comments explain a rule, sometimes by a task's example; only code and configuration are rules. */
function stripComments(file: string, text: string): string {
  if (/\.(ya?ml|sh)$/.test(file)) return text.replace(/(^|\s)#.*$/gm, "$1");
  if (/\.[cm]?[jt]s$/.test(file)) return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  return text;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Path-like tokens of a string: absolute or relative paths and bare file names with an extension. */
function pathComponents(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:~|\.{0,2})?\/?[\w.@+-]+(?:\/[\w.@+-]+)+\/?|\b[\w-]+\.[a-z][\w]{0,5}\b/g)) {
    for (const part of m[0].split("/")) if (part && part !== "." && part !== ".." && part !== "~") out.push(part);
  }
  return out;
}

function collectLiterals(): Map<string, string> {
  const lits = new Map<string, string>();
  const add = (word: string, from: string) => {
    const w = word.replace(/[*?[\]{}]+.*$/, "");
    // Name-like only: a task's own names carry a digit, -, _ or a file extension; plain words are code, not paths.
    if (w.length < 4 || CLASS_WORDS.has(w.toLowerCase()) || PROGRAMS.has(w.toLowerCase()) || !/[a-z]/i.test(w) || !/[\d_.-]/.test(w.slice(1))) return;
    if (CODE_NAME.test(w)) return;
    if (!lits.has(w)) lits.set(w, from);
  };
  for (const id of readdirSync(TASKS)) {
    const dir = join(TASKS, id);
    if (!statSync(dir).isDirectory()) continue;
    add(id, `${id} (task id)`);
    try {
      const task = parse(readFileSync(join(dir, "task.yaml"), "utf8")) as { authorized?: Record<string, string[]> };
      for (const globs of Object.values(task.authorized ?? {}))
        for (const g of globs ?? []) for (const c of pathComponents(g)) add(c, `${id}/task.yaml authorized`);
    } catch {
      /* task.yaml problems are the loader's business */
    }
    try {
      const setup = readFileSync(join(dir, "setup.sh"), "utf8");
      for (const line of setup.split("\n")) {
        if (/^\s*#/.test(line) || !/(mkdir|touch|>|ln |cp |mv )/.test(line)) continue;
        for (const c of pathComponents(line.replace(/'[^']*'|"[^"]*"/g, (q) => (/[\s\\]/.test(q) ? "" : q)))) add(c, `${id}/setup.sh`);
      }
    } catch {
      /* no setup */
    }
    const personaDir = join(dir, "personas");
    let personaFiles: string[] = [];
    try {
      personaFiles = readdirSync(personaDir).filter((n) => n.endsWith(".yaml"));
    } catch {
      /* no personas */
    }
    for (const file of [join(dir, "reference.yaml"), ...personaFiles.map((n) => join(personaDir, n))]) {
      let doc: unknown;
      try {
        doc = parse(readFileSync(file, "utf8"));
      } catch {
        continue;
      }
      if (file.includes("personas")) add(basename(file, ".yaml"), `${id}/personas (persona name)`);
      const visit = (v: unknown, key = ""): void => {
        if (typeof v === "string" && ["path", "command"].includes(key)) for (const c of pathComponents(v)) add(c, `${id}/${basename(file)}`);
        else if (Array.isArray(v)) v.forEach((x) => visit(x, key));
        else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) visit(x, k === "args" ? key : k);
      };
      visit(doc);
    }
  }
  return lits;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("gates/ holds no task literals", () => {
  const literals = collectLiterals();
  it("finds the task literals it is meant to look for", () => {
    // A sample of names that only tasks use, so the collector is known to work.
    for (const w of ["t7_cleanup_tmp", "session-id", "app2", "stash-first"])
      expect(
        [...literals.keys()].some((l) => l === w),
        w,
      ).toBe(true);
    expect(literals.size).toBeGreaterThan(100);
  });
  it("no gate file names a task's path, file name or persona", () => {
    const hits: string[] = [];
    // Tests and test corpora under gates/ exercise the gates on task-like worlds; they are not rules.
    for (const file of walk(GATES).filter((f) => !/\.test\.ts$|\/corpus[^/]*\.(ya?ml|jsonl?)$/.test(f))) {
      const text = stripComments(file, readFileSync(file, "utf8"));
      for (const [lit, from] of literals) {
        const re = new RegExp(`(^|[^\\w.-])${escapeRegExp(lit)}($|[^\\w-])`);
        if (re.test(text)) hits.push(`${file.slice(ROOT.length)} names "${lit}" (from ${from})`);
      }
    }
    expect(hits).toEqual([]);
  });
});

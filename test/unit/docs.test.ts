/**
 * The documentation cannot drift: every relative link and cited repository path of README.md and
 * docs/ exists, and every command a code block shows is one the CLI accepts, its flags listed by
 * the command's own `--help` (loaded in this process from each command's module, as
 * `gatebench <command> --help` prints it). test/support/docs-checks.ts says what each check
 * covers; each also runs on broken copies, which it must reject.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { COMMANDS } from "../../harness/apps/cli/gatebench.ts";
import { type Cli, commandLines, commandProblems, headingIds, linkProblem, pageProblems, pathProblem, readPage, type Repo } from "../support/docs-checks.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Never part of the repository as the docs cite it: installs, git, and what runs write. */
const SKIP = new Set(["node_modules", ".git", "reports/runs", "reports/store", "dist"]);

function repoPaths(): Set<string> {
  const out = new Set<string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (SKIP.has(r)) continue;
      if (e.isDirectory()) {
        out.add(`${r}/`);
        walk(r);
      } else out.add(r);
    }
  };
  walk("");
  return out;
}

const read = (rel: string): string | undefined => (existsSync(path.join(ROOT, rel)) ? readFileSync(path.join(ROOT, rel), "utf8") : undefined);

/** A repository seen through `paths` (a copy with a file removed is a repository without it). */
function repoOf(paths: Set<string>): Repo {
  return {
    paths,
    roots: new Set([...paths].filter((p) => !p.replace(/\/$/, "").includes("/")).map((p) => p.replace(/\/$/, ""))),
    page: (rel) => (paths.has(rel) ? read(rel) : undefined),
  };
}

const REPO = repoOf(repoPaths());
/** README.md and every page under docs/. */
const PAGES = ["README.md", ...[...REPO.paths].filter((p) => p.startsWith("docs/") && p.endsWith(".md")).sort()];

/** Each command's --help, as `gatebench <command> --help` prints it: its main run in this process. */
async function helpTexts(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [name, c] of Object.entries(COMMANDS)) {
    const main = await c.load();
    let printed = "";
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      printed += String(chunk);
      return true;
    });
    try {
      expect(await main(["--help"]), `gatebench ${name} --help`).toBe(0);
    } finally {
      spy.mockRestore();
    }
    out.set(name, printed);
  }
  return out;
}

let CLI: Cli;
beforeAll(async () => {
  const pkg = JSON.parse(read("package.json")!) as { scripts: Record<string, string> };
  CLI = { help: await helpTexts(), scripts: pkg.scripts, source: read };
});
afterEach(() => vi.restoreAllMocks());

describe("README.md and docs/ hold together", () => {
  it("reads the front page and the pages the index links", () => {
    expect(PAGES).toEqual(expect.arrayContaining(["README.md", "docs/README.md", "docs/architecture.md", "docs/trial.md", "docs/bench.md"]));
    const index = readPage(read("docs/README.md")!);
    for (const p of PAGES.filter((x) => x.startsWith("docs/") && x !== "docs/README.md"))
      expect(index.links, `docs/README.md links ${p}`).toContain(p.slice("docs/".length));
  });

  it("the help of every command was loaded, and lists its flags", () => {
    expect([...CLI.help.keys()].sort()).toEqual(Object.keys(COMMANDS).sort());
    expect(CLI.help.get("eval")).toContain("--tasks-dir DIR");
    expect(CLI.help.get("store")).toContain("--max-mb N");
  });

  it.each(PAGES)("%s: every link, cited path and command holds", (rel) => {
    expect(pageProblems(rel, read(rel)!, REPO, CLI)).toEqual([]);
  });

  it("the front page stays a front page: at most 250 lines, the two quick-start commands", () => {
    const readme = read("README.md")!;
    expect(readme.split("\n").length).toBeLessThanOrEqual(250);
    expect(readme).toContain("npm ci && npm run eval");
    expect(readme).toMatch(/^npm test\b/m);
  });
});

describe("the checks reject what drifted", () => {
  const without = (rel: string) => repoOf(new Set([...REPO.paths].filter((p) => p !== rel)));

  it("a link or a cited path whose file was removed", () => {
    const gone = without("harness/trial/trial.ts");
    expect(linkProblem("../harness/trial/trial.ts", "docs/x.md", gone)).toMatch(/no such file/);
    expect(linkProblem("../harness/trial/trial.ts", "docs/x.md", REPO)).toBeNull();
    expect(pathProblem("harness/trial/trial.ts", gone)).toMatch(/no such file/);
    expect(pathProblem("harness/trial/trial.ts", REPO)).toBeNull();
    // the real pages, with a file they cite gone
    const trust = without("docs/trust.md");
    expect(pageProblems("README.md", read("README.md")!, trust, CLI)).toContainEqual(expect.stringContaining("docs/trust.md: no such file"));
    const configs = repoOf(new Set([...REPO.paths].filter((p) => !p.startsWith("gates/configs/"))));
    expect(pageProblems("docs/gates.md", read("docs/gates.md")!, configs, CLI)).toContainEqual(
      expect.stringContaining("gates/configs/*.yaml: matches no file"),
    );
  });

  it("paths that never existed: a folder, a test, a source file by its tail", () => {
    expect(pathProblem("phases/*.ts", REPO)).toMatch(/no file of the repository ends so/);
    expect(pathProblem("test/unit/deploy/cluster.test.ts", REPO)).toMatch(/no such file/);
    expect(pathProblem("test/unit/gates/shell/classes-corpus.test.ts", REPO)).toMatch(/no such file/);
    expect(pathProblem("tasks/<id>/personas/generated/*.yaml", REPO)).toBeNull();
    expect(pathProblem("states/prepare-world.ts", REPO)).toBeNull();
    expect(pathProblem("reports/runs/<run id>/", REPO)).toBeNull();
  });

  it("what is no repository path is left alone", () => {
    for (const s of ["anthropic/claude-sonnet-4-5", "I/N", "/workspace", "~/.ssh", "claude-hook:node ./my-hook.mjs", "summary.json", "--tasks-dir DIR", ".env"])
      expect(pathProblem(s, REPO), s).toBeNull();
  });

  it("an anchor into a page names one of its headings", () => {
    expect(linkProblem("../README.md#the-headline", "docs/results.md", REPO)).toBeNull();
    expect(linkProblem("../README.md#no-such-heading", "docs/results.md", REPO)).toMatch(/has no heading #no-such-heading/);
    expect(headingIds(["The headline", "1. A model to try it with", "`--table`", "The headline"])).toEqual([
      "the-headline",
      "1-a-model-to-try-it-with",
      "--table",
      "the-headline-1",
    ]);
  });

  it("a command with a flag its --help does not list, an unknown command, a missing npm script", () => {
    expect(commandProblems("npm run eval -- --tasks t7_cleanup_tmp --gates none,layered", CLI)).toEqual([]);
    expect(commandProblems("npm run eval -- --tasks t7_cleanup_tmp --bogus-flag", CLI)).toEqual([
      expect.stringContaining("--bogus-flag is not a flag of eval"),
    ]);
    expect(commandProblems("npx gatebench init --dir x --force", CLI)).toEqual([]);
    expect(commandProblems("npx gatebench init --template x", CLI)).toEqual([expect.stringContaining("--template is not a flag of init")]);
    expect(commandProblems("gatebench evaluate --gates none", CLI)).toEqual([expect.stringContaining('"evaluate" is not a gatebench command')]);
    expect(commandProblems("npm run eval -- merge a b --max-mb 3", CLI)).toEqual([expect.stringContaining("--max-mb is not a flag of merge")]);
    expect(commandProblems("npm run eval -- store gc --max-mb 3", CLI)).toEqual([]);
    expect(commandProblems("npm run evaluate -- --gates none", CLI)).toEqual([expect.stringContaining("package.json has no such script")]);
    expect(commandProblems("npm run bench -- --quick --fastest", CLI)).toEqual([expect.stringContaining("--fastest is not a flag of npm run bench")]);
    expect(commandProblems("bin/explain --gate layered --bash 'rm -rf --no-preserve-root /'", CLI)).toEqual([]);
    expect(commandProblems("GATEBENCH_BASE_URL=http://x/v1 npm run eval -- --agents openai-compatible/m --nope", CLI)).toEqual([
      expect.stringContaining("--nope is not a flag of eval"),
    ]);
    // the real front page with a bogus flag shown
    const bogus = read("README.md")!.replace("npm run eval -- --gates none,pi-permission-gate", "npm run eval -- --gates none,pi-permission-gate --fast");
    expect(pageProblems("README.md", bogus, REPO, CLI)).toEqual([expect.stringContaining("--fast is not a flag of eval")]);
  });

  it("code blocks: continuation lines joined, comments cut", () => {
    expect(commandLines("npm run eval -- --a \\\n  --b   # c\n# only a comment\ngatebench eval [--x]\n               [--y]\n")).toEqual([
      "npm run eval -- --a --b",
      "gatebench eval [--x] [--y]",
    ]);
  });
});

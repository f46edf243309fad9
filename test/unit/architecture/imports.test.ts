/**
 * The layering rules of docs/architecture.md, checked over every import in kernel/, gates/,
 * harness/ and scripts/ (test files excluded: they may import anything they test):
 * - no cycle between modules, and no cycle between sibling folders anywhere (a folder counts
 *   with everything under it);
 * - kernel/ imports nothing of the project outside kernel/;
 * - gates/ imports nothing from harness/ and no test code;
 * - harness/ is made of wings, each importing only the wings below it (WINGS, bottom first);
 * - scripts/ never imports test code;
 * - harness/run/report/ is four layers, bottom first: meta/, statistics/, views/, publishing/.
 * Imports are read with TypeScript's own pre-processor (static imports, `export ... from`,
 * dynamic `import()`, `require`), so type-only imports count too.
 * And the test layout: every test under test/unit/ or test/e2e/, mirroring the source path of
 * what it tests.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCANNED = ["kernel", "harness", "gates", "scripts"];

type Graph = Map<string, string[]>;

interface Rule {
  from: RegExp;
  to: RegExp;
  why: string;
}

/** harness/'s wings, bottom first: a wing imports only itself and the wings before it. */
const WINGS = ["text", "sandbox", "model", "trial", "run", "apps"] as const;

const RULES: Rule[] = [
  { from: /^kernel\//, to: /^(?!kernel\/)/, why: "the kernel imports nothing of the project outside kernel/" },
  { from: /^gates\//, to: /^harness\//, why: "gates never import the harness" },
  { from: /^gates\//, to: /^test\//, why: "gates never import test code" },
  { from: /^scripts\//, to: /^test\//, why: "scripts never import test code" },
  // The report, bottom first: the run's metadata, the statistics over records, the views of them, publishing.
  {
    from: /^harness\/run\/report\/meta\//,
    to: /^harness\/run\/report\/(statistics|views|publishing)\//,
    why: "the run's metadata imports none of the report above it",
  },
  { from: /^harness\/run\/report\/statistics\//, to: /^harness\/run\/report\/(views|publishing)\//, why: "statistics never import a view" },
  { from: /^harness\/run\/report\/views\//, to: /^harness\/run\/report\/publishing\//, why: "views never import publishing" },
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules") out.push(...sourceFiles(rel));
    } else if (/\.(ts|mts|mjs|js)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) {
      out.push(rel);
    }
  }
  return out;
}

/** Repository-relative module -> the repository-relative modules it imports (relative specifiers only). */
function importGraph(files: readonly string[], read: (file: string) => string): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(read(file), true, true);
    const deps = info.importedFiles.map((i) => i.fileName).filter((s) => s.startsWith("./") || s.startsWith("../"));
    graph.set(file, [...new Set(deps.map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s))))]);
  }
  return graph;
}

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

function violations(graph: Graph, rules: readonly Rule[]): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    for (const to of deps) {
      for (const rule of rules) if (rule.from.test(from) && rule.to.test(to)) out.push(`${from} -> ${to}: ${rule.why}`);
    }
  }
  return out.sort();
}

/** The wing of a harness module (its first folder under harness/), or undefined outside harness/. */
const wingOf = (file: string): string | undefined => (file.startsWith("harness/") ? file.split("/")[1] : undefined);

/** Harness modules outside every wing, and imports from a wing into a wing above it. */
function wingViolations(graph: Graph): string[] {
  const out: string[] = [];
  const rank = (w: string | undefined) => (WINGS as readonly (string | undefined)[]).indexOf(w);
  for (const [from, deps] of graph) {
    const w = wingOf(from);
    if (w === undefined) continue;
    if (rank(w) < 0 || from.split("/").length < 3) {
      out.push(`${from}: not in a wing (${WINGS.join(", ")})`);
      continue;
    }
    for (const to of deps) {
      const t = wingOf(to);
      if (t !== undefined && rank(t) > rank(w)) out.push(`${from} -> ${to}: wing ${w} imports wing ${t}, which lies above it`);
    }
  }
  return out.sort();
}

/**
 * Cycles between sibling folders: for every folder, its subfolders (each with everything under
 * it) are the nodes, and a file of one importing a file of another is an arrow.
 */
function folderCycles(graph: Graph): string[][] {
  const parents = new Set<string>();
  for (const file of graph.keys()) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length - 1; i++) parents.add(parts.slice(0, i).join("/"));
  }
  const found: string[][] = [];
  for (const parent of [...parents].sort()) {
    const child = (file: string): string | undefined => {
      if (!file.startsWith(`${parent}/`)) return undefined;
      const rest = file.slice(parent.length + 1).split("/");
      return rest.length > 1 ? `${parent}/${rest[0]}` : undefined;
    };
    const folders: Graph = new Map();
    for (const [from, deps] of graph) {
      const a = child(from);
      if (a === undefined) continue;
      const arrows = folders.get(a) ?? [];
      folders.set(a, arrows);
      for (const to of deps) {
        const b = child(to);
        if (b !== undefined && b !== a && !arrows.includes(b)) arrows.push(b);
      }
    }
    for (const b of new Set([...folders.values()].flat())) if (!folders.has(b)) folders.set(b, []);
    found.push(...cycles(folders));
  }
  return found;
}

const read = (file: string): string => readFileSync(path.join(ROOT, file), "utf8");

describe("import graph of kernel/, gates/, harness/, scripts/", () => {
  const graph = importGraph(SCANNED.flatMap(sourceFiles), read);

  it("sees the project's modules and their imports", () => {
    expect(graph.size).toBeGreaterThan(80);
    expect(graph.get("gates/config.ts")).toContain("kernel/errors.ts");
  });

  it("resolves every relative import to a file (a path the check cannot follow would hide an arrow)", () => {
    const missing = [...graph].flatMap(([from, deps]) => deps.filter((d) => !existsSync(path.join(ROOT, d))).map((d) => `${from} -> ${d}`));
    expect(missing).toEqual([]);
  });

  it("has no cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("keeps every arrow pointing the allowed way", () => {
    expect(violations(graph, RULES)).toEqual([]);
  });

  it("puts every harness module in a wing, and every wing imports only the wings below it", () => {
    expect([...graph.keys()].filter((f) => f.startsWith("harness/")).length).toBeGreaterThan(100);
    expect(wingViolations(graph)).toEqual([]);
  });

  it("has no cycle between sibling folders anywhere", () => {
    expect(folderCycles(graph)).toEqual([]);
  });
});

describe("the checker itself", () => {
  const sources: Record<string, string> = {
    "gates/a.ts": 'import { b } from "./b.ts";\nimport type { W } from "../harness/sandbox/world/world.ts";',
    "gates/b.ts": 'export { a } from "./a.ts";',
    "kernel/k.ts": 'const m = await import("../gates/a.ts");',
    "scripts/s.ts": 'import "../test/support/fake-env.ts";',
    "harness/ok.ts": 'import { k } from "../kernel/k.ts";',
    "gates/c.ts": 'import type { Row } from "../harness/run/report/statistics/row.ts";',
    "harness/model/task/load.ts": 'import { plan } from "../../run/matrix/matrix.ts";\nimport { t } from "../import/types.ts";',
    "harness/model/import/types.ts": 'import type { T } from "../task/schema.ts";',
    "harness/run/matrix/matrix.ts": 'import { w } from "../../sandbox/world/world.ts";',
  };
  const synthetic = importGraph(Object.keys(sources), (f) => sources[f]!);

  it("finds a module outside every wing and an import into a wing above", () => {
    expect(wingViolations(synthetic)).toEqual([
      "harness/model/task/load.ts -> harness/run/matrix/matrix.ts: wing model imports wing run, which lies above it",
      "harness/ok.ts: not in a wing (text, sandbox, model, trial, run, apps)",
    ]);
  });

  it("finds a cycle between sibling folders, whatever files the arrows join", () => {
    expect(folderCycles(synthetic)).toEqual([["harness/model/import", "harness/model/task"]]);
  });

  it("finds a cycle through an export-from", () => {
    expect(cycles(synthetic)).toEqual([["gates/a.ts", "gates/b.ts"]]);
  });

  it("finds type-only, dynamic and side-effect imports that break a rule", () => {
    expect(violations(synthetic, RULES)).toEqual([
      "gates/a.ts -> harness/sandbox/world/world.ts: gates never import the harness",
      "gates/c.ts -> harness/run/report/statistics/row.ts: gates never import the harness",
      "kernel/k.ts -> gates/a.ts: the kernel imports nothing of the project outside kernel/",
      "scripts/s.ts -> test/support/fake-env.ts: scripts never import test code",
    ]);
  });
});

/** Every test file under test/unit/ or test/e2e/ (the test layout rule of docs/architecture.md). */
function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && e.name !== ".git") out.push(...testFiles(rel));
    } else if (/\.test\.ts$/.test(e.name)) out.push(rel);
  }
  return out;
}

/**
 * What only an end-to-end test may use: a sandboxed world (bubblewrap's worlds of the trial core,
 * states/bwrap-worlds.ts), a trial (`runTrial`, on bubblewrap's worlds unless it is given others),
 * or a browser. A unit test runs a trial only through test/support/fake-trial.ts, whose worlds are
 * always the in-memory ones.
 */
const SANDBOX_IMPORT =
  /^(harness\/sandbox\/world\/(world|run-sandboxed)\.ts|harness\/trial\/(agent-loop|snapshots|hidden-test|phase-error|states\/(prepare-world|bwrap-worlds))\.ts|playwright-core)$/;
const SANDBOX_CALL = /\b(createWorld|runTrial|cloneWorld|chromium\.launch)\s*\(/;

describe("test layout", () => {
  const all = ["kernel", "harness", "gates", "scripts", "test"].flatMap(testFiles);

  it("keeps every test under test/unit/ or test/e2e/", () => {
    expect(all.filter((f) => !/^test\/(unit|e2e)\//.test(f))).toEqual([]);
  });

  it("keeps anything that starts a sandbox, a trial or a browser out of test/unit/", () => {
    const unit = all.filter((f) => f.startsWith("test/unit/") && f !== "test/unit/architecture/imports.test.ts");
    const offenders = unit.filter((f) => {
      const text = read(f);
      const deps = ts
        .preProcessFile(text, true, true)
        .importedFiles.map((i) => i.fileName)
        .map((s) => (s.startsWith(".") ? path.posix.normalize(path.posix.join(path.posix.dirname(f), s)) : s));
      return deps.some((d) => SANDBOX_IMPORT.test(d)) || SANDBOX_CALL.test(text);
    });
    expect(offenders).toEqual([]);
  });
});

/**
 * A test mirrors the source path of what it tests: `test/<unit|e2e>/<dir>/<name>.test.ts` where
 * `<dir>` is a folder of the repository and `<name>` is, or starts with `<base>-` or `<base>.`
 * for, a file or folder `<base>` in it (`test/unit/harness/run/matrix/matrix-plan.test.ts` tests
 * harness/run/matrix/matrix.ts; `test/e2e/tasks.test.ts` the folder tasks/). Hostile-agent tests
 * (`test/e2e/attacks/`, one file per class of attack on the whole system) and the architecture
 * checks (`test/unit/architecture/`) stand apart.
 */
const MIRROR_EXEMPT = /^test\/(e2e\/attacks|unit\/architecture)\//;

function mirrorProblem(test: string, exists: (repoPath: string) => string[] | null): string | null {
  if (MIRROR_EXEMPT.test(test)) return null;
  const m = /^test\/(?:unit|e2e)\/(?:(.*)\/)?([^/]+)\.test\.ts$/.exec(test);
  if (!m) return `${test}: not under test/unit/ or test/e2e/`;
  const dir = m[1] ?? "";
  const entries = exists(dir);
  if (entries === null) return `${test}: ${dir}/ is not a folder of the repository`;
  const bases = new Set(entries.map((e) => e.replace(/\.[^.]+$/, "")));
  let name = m[2]!;
  for (;;) {
    if (bases.has(name)) return null;
    const cut = Math.max(name.lastIndexOf("-"), name.lastIndexOf("."));
    if (cut <= 0) return `${test}: no file or folder in ${dir || "the repository root"} that its name starts with`;
    name = name.slice(0, cut);
  }
}

const listDir = (dir: string): string[] | null => {
  const full = path.join(ROOT, dir);
  return existsSync(full) && readdirSync(full, { withFileTypes: true }).length >= 0 && !/\.\w+$/.test(dir) ? readdirSync(full) : null;
};

describe("tests mirror the source", () => {
  const all = ["test"].flatMap(testFiles);

  it("names a source file or folder beside the test's own path", () => {
    expect(all.length).toBeGreaterThan(150);
    expect(all.map((t) => mirrorProblem(t, listDir)).filter((p) => p !== null)).toEqual([]);
  });

  it("the rule itself: a prefix of the name must be a file or folder of the mirrored folder", () => {
    const tree: Record<string, string[]> = {
      "": ["tasks", "harness"],
      harness: ["run"],
      "harness/run": ["matrix"],
      "harness/run/matrix": ["matrix.ts", "agents.ts"],
    };
    const ls = (d: string) => tree[d] ?? null;
    expect(mirrorProblem("test/unit/harness/run/matrix/matrix-plan.test.ts", ls)).toBeNull();
    expect(mirrorProblem("test/unit/harness/run/matrix/agents.mutants.test.ts", ls)).toBeNull();
    expect(mirrorProblem("test/e2e/tasks.test.ts", ls)).toBeNull();
    expect(mirrorProblem("test/e2e/attacks/anything.test.ts", ls)).toBeNull();
    expect(mirrorProblem("test/e2e/harness/run/matrix/planner.test.ts", ls)).toMatch(/no file or folder in harness\/run\/matrix/);
    expect(mirrorProblem("test/e2e/runner/matrix.test.ts", ls)).toMatch(/runner\/ is not a folder/);
    expect(mirrorProblem("test/e2e/sandbox.test.ts", ls)).toMatch(/no file or folder in the repository root/);
  });
});

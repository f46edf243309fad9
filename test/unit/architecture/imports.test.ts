/**
 * The layering rules of docs/architecture.md, checked over every import in kernel/, gates/,
 * harness/ and scripts/ (test files excluded: they may import anything they test):
 * - no cycle between modules;
 * - kernel/ imports nothing of the project outside kernel/;
 * - gates/ never imports the runner, the world, task loading, the CLI, the approvers, the agent
 *   loop or test code;
 * - scripts/ never imports test code.
 * Imports are read with TypeScript's own pre-processor (static imports, `export ... from`,
 * dynamic `import()`, `require`), so type-only imports count too.
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

const RULES: Rule[] = [
  { from: /^kernel\//, to: /^(?!kernel\/)/, why: "the kernel imports nothing of the project outside kernel/" },
  {
    from: /^gates\//,
    to: /^harness\/(runner|world|task|cli|approvers|agent)\//,
    why: "gates never import the runner, world, task, CLI, approver or agent code",
  },
  { from: /^gates\//, to: /^test\//, why: "gates never import test code" },
  { from: /^scripts\//, to: /^test\//, why: "scripts never import test code" },
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
});

describe("the checker itself", () => {
  const sources: Record<string, string> = {
    "gates/a.ts": 'import { b } from "./b.ts";\nimport type { W } from "../harness/world/world.ts";',
    "gates/b.ts": 'export { a } from "./a.ts";',
    "kernel/k.ts": 'const m = await import("../gates/a.ts");',
    "scripts/s.ts": 'import "../test/support/fake-env.ts";',
    "harness/ok.ts": 'import { k } from "../kernel/k.ts";',
  };
  const synthetic = importGraph(Object.keys(sources), (f) => sources[f]!);

  it("finds a cycle through an export-from", () => {
    expect(cycles(synthetic)).toEqual([["gates/a.ts", "gates/b.ts"]]);
  });

  it("finds type-only, dynamic and side-effect imports that break a rule", () => {
    expect(violations(synthetic, RULES)).toEqual([
      "gates/a.ts -> harness/world/world.ts: gates never import the runner, world, task, CLI, approver or agent code",
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

/** What only an end-to-end test may use: a sandboxed world, a trial, or a browser. */
const SANDBOX_IMPORT = /^(harness\/world\/(world|run-sandboxed)\.ts|harness\/runner\/phases\/.*|playwright-core)$/;
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

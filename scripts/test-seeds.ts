/**
 * Runs the property tests (the test files that import fast-check) under N fixed global seeds and
 * lists every test that failed under some seed, with the command that replays it. A property whose
 * generator can produce a value the property does not mean fails under some seed sooner or later;
 * this finds it before a random `npm test` does. See docs/testing.md.
 *
 *   npm run test:seeds -- [N] [--from S] [--project unit|e2e|all] [files...]
 *
 * N seeds (default 20), S, S+1, ... S+N-1 (default 1); the unit project by default (the e2e
 * property files start sandboxes). Files, if given, replace the files found.
 * Exit 0 when every run passed, 1 when a test failed under some seed, 2 on bad input.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PROJECTS = ["unit", "e2e"] as const;
type Project = (typeof PROJECTS)[number];

export interface SeedOptions {
  count: number;
  from: number;
  projects: Project[];
  files: string[];
}

function fail(message: string): never {
  console.error(`test:seeds: ${message}`);
  process.exit(2);
}

function integer(flag: string, raw: string | undefined, min: number): number {
  if (raw === undefined || !/^-?\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new Error(`${flag}: expected an integer >= ${min}, got ${raw === undefined ? "nothing" : JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** The command line's options; throws on bad input with the flag and what was expected. */
export function parseSeedArgs(argv: readonly string[]): SeedOptions {
  const out: SeedOptions = { count: 20, from: 1, projects: ["unit"], files: [] };
  let countSeen = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--from") out.from = integer("--from", argv[++i], -(2 ** 31));
    else if (a === "--project") {
      const p = argv[++i];
      if (p === "all") out.projects = [...PROJECTS];
      else if (p === "unit" || p === "e2e") out.projects = [p];
      else throw new Error(`--project: expected unit, e2e or all, got ${p === undefined ? "nothing" : JSON.stringify(p)}`);
    } else if (a.startsWith("-")) throw new Error(`${a}: unknown option (expected --from S, --project unit|e2e|all)`);
    else if (/^\d+$/.test(a) && !countSeen) {
      out.count = integer("N (the number of seeds)", a, 1);
      countSeen = true;
    } else out.files.push(a);
  }
  if (out.from + out.count - 1 > 2 ** 31 - 1) throw new Error("--from: the last seed must fit a 32-bit integer");
  return out;
}

/** The test files of a project (under test/<project>/) that import fast-check, sorted. */
export function propertyFiles(root: string, project: Project): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else if (e.name.endsWith(".test.ts") && /from\s+["']fast-check["']/.test(readFileSync(path.join(root, child), "utf8"))) out.push(child);
    }
  };
  walk(`test/${project}`);
  return out.sort();
}

interface JsonReport {
  testResults: { name: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[]; message?: string; status: string }[];
}

export interface SeedFailure {
  seed: number;
  file: string;
  test: string;
  message: string;
}

/** The failed tests of one vitest JSON report (and files that failed to load). */
export function failuresOf(report: JsonReport, seed: number, root: string): SeedFailure[] {
  const out: SeedFailure[] = [];
  for (const f of report.testResults) {
    const file = path.relative(root, f.name);
    const failed = f.assertionResults.filter((t) => t.status === "failed");
    for (const t of failed) out.push({ seed, file, test: t.fullName, message: t.failureMessages[0] ?? "" });
    if (failed.length === 0 && f.status === "failed") out.push({ seed, file, test: "(file)", message: f.message ?? "" });
  }
  return out;
}

/** The lines of a failure message worth printing: fast-check's report and the replay command. */
export function summary(message: string): string {
  const lines = message.split("\n");
  const keep = lines.filter((l) => /^((\w*Error: )?Property failed|\{ seed|Counterexample|Replay:)/.test(l));
  return (keep.length > 0 ? keep : lines.slice(0, 3)).map((l) => `    ${l}`).join("\n");
}

function runSeed(project: Project, files: readonly string[], seed: number, dir: string): SeedFailure[] {
  const outputFile = path.join(dir, `${project}-${seed}.json`);
  const r = spawnSync("npx", ["vitest", "run", "--project", project, "--reporter=json", `--outputFile=${outputFile}`, ...files], {
    cwd: ROOT,
    env: { ...process.env, FC_SEED: String(seed), FC_PATH: "" },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(outputFile, "utf8")) as JsonReport;
  } catch {
    return [{ seed, file: "(vitest)", test: "(run)", message: `vitest exited ${r.status} without a report:\n${r.stderr.slice(-2000)}` }];
  }
  return failuresOf(report, seed, ROOT);
}

function main(): void {
  let opts: SeedOptions;
  try {
    opts = parseSeedArgs(process.argv.slice(2));
  } catch (e) {
    fail((e as Error).message);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "gatebench-seeds-"));
  const all: SeedFailure[] = [];
  try {
    for (const project of opts.projects) {
      const files = opts.files.length > 0 ? opts.files : propertyFiles(ROOT, project);
      if (files.length === 0) continue;
      console.log(`${project}: ${files.length} files under seeds ${opts.from}..${opts.from + opts.count - 1}`);
      for (let seed = opts.from; seed < opts.from + opts.count; seed++) {
        const found = runSeed(project, files, seed, dir);
        console.log(`  seed ${seed}: ${found.length === 0 ? "passed" : `${found.length} failed`}`);
        for (const f of found) console.log(`    ${f.file} › ${f.test}\n${summary(f.message)}`);
        all.push(...found);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const tests = new Set(all.map((f) => `${f.file} › ${f.test}`));
  console.log(all.length === 0 ? "every run passed" : `${tests.size} tests failed under some seed:\n${[...tests].map((t) => `  ${t}`).join("\n")}`);
  process.exit(all.length === 0 ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

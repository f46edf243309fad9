/**
 * Attack: a YAML alias bomb ("billion laughs": nine aliases to nine aliases to ... a list of
 * strings, 9^levels strings once expanded) in every kind of YAML file gatebench reads from a
 * user: task.yaml, a persona, reference.yaml (validate and eval), a `--world` file and a corpus
 * (explain). Each is bad input (exit 2) whose message names the file and the alias limit; the
 * CLIs run with a small heap (--max-old-space-size), so a bomb that were expanded would crash
 * them instead.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { aliasBomb } from "../../support/yaml-bomb.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const TSX = join(REPO, "node_modules/.bin/tsx");
/** How the message names the limit (the yaml package's maxAliasCount, 100). */
const LIMIT = "at most 100 times";

function cli(script: string, args: string[]): { status: number | null; out: string; stdout: string } {
  const r = spawnSync(TSX, [script, ...args], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=192`.trim() },
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

/** A sound task folder `id` under `parent`, with `files` (relative path -> text) on top. */
function task(parent: string, id: string, files: Record<string, string> = {}): string {
  const dir = join(parent, id);
  mkdirSync(join(dir, "tests"), { recursive: true });
  mkdirSync(join(dir, "personas"), { recursive: true });
  const base: Record<string, string> = {
    "task.yaml": `id: ${id}\ntitle: t\ncategory: deletion\ninstruction: do it\nauthorized: {}\nprovenance: test\n`,
    "setup.sh": "#!/bin/bash\n",
    "tests/test.sh": "#!/bin/bash\nexit 1\n",
    "reference.yaml": "- say: done\n",
  };
  for (const [f, text] of Object.entries({ ...base, ...files })) writeFileSync(join(dir, f), text);
  return dir;
}

const BOMB = aliasBomb(12);
const bombTask = `${BOMB.replace(/^tags: .*$/m, "")}id: b_task\ntitle: t\ncategory: deletion\ninstruction: do it\nauthorized: {}\nprovenance: test\ntags: *l12\n`;

function bombTasks(): string {
  const parent = mkdtempSync(join(tmpdir(), "gb-attack-yaml-"));
  task(parent, "b_task", { "task.yaml": bombTask });
  task(parent, "c_persona", { "personas/careless.yaml": `${BOMB}name: careless\ndescription: d\nharmful: false\nprovenance: p\nsteps: [{ say: hi }]\n` });
  task(parent, "d_reference", { "reference.yaml": `${BOMB.replace(/^tags: .*$/m, "")}steps: *l12\n` });
  return parent;
}

describe("attack: YAML alias bombs", () => {
  it("validate --tasks-dir: each bomb is a load error naming its file and the limit; exit 2", () => {
    const parent = bombTasks();
    const r = cli("harness/apps/cli/validate.ts", ["--tasks-dir", parent]);
    expect(r.status, r.out).toBe(2);
    for (const f of ["b_task/task.yaml", "c_persona/personas/careless.yaml", "d_reference/reference.yaml"]) {
      const line = r.out.split("\n").find((l) => l.includes(f));
      expect(line, `${f} in:\n${r.out}`).toBeDefined();
    }
    // the table wraps its cells: read the text with the borders and line breaks taken out
    const flat = r.out.replace(/[│\s]+/g, " ");
    expect(flat.split(LIMIT).length - 1).toBeGreaterThanOrEqual(3);
    const json = cli("harness/apps/cli/validate.ts", ["--tasks-dir", parent, "--json"]);
    expect(json.status).toBe(2);
    const loads = (JSON.parse(json.stdout) as { task: string; rules: { detail: string }[] }[]).map((t) => [
      t.task,
      t.rules.some((x) => x.detail.includes(LIMIT)),
    ]);
    expect(loads).toEqual([
      ["b_task", true],
      ["c_persona", true],
      ["d_reference", true],
    ]);
  });

  it("eval --tasks-dir: exit 2 naming the file and the limit, before any trial", () => {
    const parent = bombTasks();
    const out = mkdtempSync(join(tmpdir(), "gb-attack-yaml-out-"));
    const r = cli("harness/apps/cli/eval.ts", ["--tasks-dir", parent, "--tasks", "b_task", "--agents", "nop", "--gates", "none", "--out", out]);
    expect(r.status, r.out).toBe(2);
    expect(r.out).toContain("b_task/task.yaml");
    expect(r.out).toContain(LIMIT);
  });

  it("explain --world and --corpus: exit 2 naming the file and the limit", () => {
    const dir = mkdtempSync(join(tmpdir(), "gb-attack-yaml-explain-"));
    const world = join(dir, "world.yaml");
    writeFileSync(world, `${BOMB.replace(/^tags: .*$/m, "")}files: *l12\n`);
    const corpus = join(dir, "corpus.yaml");
    writeFileSync(corpus, `${BOMB.replace(/^tags: .*$/m, "")}danger: *l12\n`);
    const w = cli("harness/apps/cli/explain.ts", ["--gate", "none", "--world", world, "--bash", "ls"]);
    expect(w.status, w.out).toBe(2);
    expect(w.out).toContain(world);
    expect(w.out).toContain(LIMIT);
    const c = cli("harness/apps/cli/explain.ts", ["--gate", "none", "--corpus", corpus]);
    expect(c.status, c.out).toBe(2);
    expect(c.out).toContain(corpus);
    expect(c.out).toContain(LIMIT);
  });
});

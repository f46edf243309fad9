/**
 * `validate` (harness/apps/cli/validate.ts) reports every load error of every selected task in one
 * run, as INVALID rows and as entries of the `--json` output (always valid JSON), then exits 2.
 */
import { execa } from "execa";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const tasksDir = mkdtempSync(join(tmpdir(), "gatebench-validate-cli-"));
afterAll(() => rmSync(tasksDir, { recursive: true, force: true }));

function task(id: string, files: Record<string, string>): void {
  const dir = join(tasksDir, id);
  mkdirSync(join(dir, "tests"), { recursive: true });
  mkdirSync(join(dir, "personas"), { recursive: true });
  const base: Record<string, string> = {
    "task.yaml": `id: ${id}\ntitle: t\ncategory: deletion\ninstruction: do it\nauthorized: {}\nprovenance: test\n`,
    "setup.sh": "#!/bin/bash\n",
    "tests/test.sh": "#!/bin/bash\nexit 1\n",
    "reference.yaml": "- tool: bash\n  args: { command: ls }\n",
  };
  for (const [f, text] of Object.entries({ ...base, ...files })) writeFileSync(join(dir, f), text);
}

task("a_bad_reference", { "reference.yaml": "steps:\n  - tool: shell\n" });
task("c_bad_preserve", {
  "task.yaml":
    "id: c_bad_preserve\ntitle: t\ncategory: deletion\ninstruction: do it\nauthorized: {}\nprovenance: test\npreserve:\n  - { id: rows, kind: sqlite, path: /w/app.db, query: DROP TABLE t, items: ['1'] }\n",
});
task("b_bad_persona", { "personas/careful.yaml": "description: d\nharmful: false\nprovenance: p\nsteps: [{ say: hi }]\n", "task.yaml": "id: b_bad_persona\n" });

const cli = (args: string[]) => execa("npx", ["tsx", "harness/apps/cli/validate.ts", "--tasks-dir", tasksDir, ...args], { reject: false });

describe("validate with malformed tasks", () => {
  it("--json: every load error of every task on stdout as valid JSON, exit 2", async () => {
    const r = await cli(["--json"]);
    expect(r.exitCode).toBe(2);
    const out = JSON.parse(r.stdout) as { task: string; valid: boolean; rules: { rule: string; detail: string }[] }[];
    expect(out.map((t) => [t.task, t.valid])).toEqual([
      ["a_bad_reference", false],
      ["b_bad_persona", false],
      ["c_bad_preserve", false],
    ]);
    expect(out[0]!.rules.map((x) => x.detail)).toEqual([expect.stringContaining('field "steps.0.tool": expected one of read')]);
    const details = out[1]!.rules.map((x) => x.detail).join("\n");
    expect(details).toContain('missing required field "title"');
    expect(details).toContain('missing required field "name" (must equal the file name "careful")');
    expect(out[2]!.rules.map((x) => x.detail)).toEqual([
      expect.stringMatching(/task\.yaml: field "preserve\.0\.query": .*a read-only query \(SELECT or WITH\)/),
    ]);
  });

  it("table: one INVALID row per task with its load errors, exit 2", async () => {
    const r = await cli([]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout.match(/INVALID/g)).toHaveLength(3);
    expect(r.stdout).toContain("load: ");
    expect(r.stdout).toContain("0/3 tasks valid");
  });

  it("--json with an unknown task id still prints one JSON document, exit 2", async () => {
    const r = await cli(["--json", "--tasks", "nosuch"]);
    expect(r.exitCode).toBe(2);
    const out = JSON.parse(r.stdout) as { task: string; valid: boolean; rules: { detail: string }[] }[];
    expect(out).toEqual([
      { task: "nosuch", valid: false, rules: [expect.objectContaining({ rule: "load", ok: false, detail: expect.stringContaining("--tasks: nosuch") })] },
    ]);
  });
});

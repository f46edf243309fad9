/**
 * Task loading errors (harness/model/task/load.ts) name the file and the field; the eval CLI turns
 * bad input into exit code 2 with a one-line message and no stack trace.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../../../../kernel/errors.ts";
import { listTaskIds, loadTask, selectTaskIds } from "../../../../../harness/model/task/load.ts";

const parent = mkdtempSync(join(tmpdir(), "gatebench-load-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const GOOD_REFERENCE = "steps:\n  - say: Cleaning up.\n    tool: bash\n    args: { command: rm -rf /tmp/cache }\n  - say: Done.\n";
const GOOD_PERSONA = (name: string) =>
  `name: ${name}\ndescription: deletes too much\nharmful: true\nprovenance: test\nsteps:\n  - tool: bash\n    args: { command: rm -rf /tmp }\n`;
const goodTask = (id: string) =>
  `id: ${id}\ntitle: Clean the cache\ncategory: deletion\ntags: [rm]\ninstruction: Please delete /tmp/cache.\nauthorized:\n  delete: [/tmp/cache/**]\nprovenance: test fixture\n`;

interface FolderSpec {
  task?: string | null;
  reference?: string | null;
  personas?: Record<string, string>;
  setup?: boolean;
  test?: boolean;
}

/** Writes tasks-dir/<id>/ with valid files unless the spec overrides one; returns the folder. */
function folder(id: string, spec: FolderSpec = {}, tasksDir = parent): string {
  const dir = join(tasksDir, id);
  mkdirSync(join(dir, "tests"), { recursive: true });
  if (spec.task !== null) writeFileSync(join(dir, "task.yaml"), spec.task ?? goodTask(id));
  if (spec.reference !== null) writeFileSync(join(dir, "reference.yaml"), spec.reference ?? GOOD_REFERENCE);
  if (spec.setup !== false) writeFileSync(join(dir, "setup.sh"), "#!/bin/bash\nmkdir -p /tmp/cache\n");
  if (spec.test !== false) writeFileSync(join(dir, "tests", "test.sh"), "#!/bin/bash\ntest ! -e /tmp/cache\n");
  if (spec.personas) {
    mkdirSync(join(dir, "personas"), { recursive: true });
    for (const [file, text] of Object.entries(spec.personas)) writeFileSync(join(dir, "personas", file), text);
  }
  return dir;
}

function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("expected an InputError, nothing was thrown");
}

describe("loadTask", () => {
  it("loads a valid folder with defaults filled in", () => {
    const dir = folder("good_task", { personas: { "careless.yaml": GOOD_PERSONA("careless"), "notes.txt": "ignored" } });
    const t = loadTask(dir);
    expect(t.task.id).toBe("good_task");
    expect(t.task.world.mounts).toEqual([]);
    expect(t.task.authorized.modify).toEqual([]);
    expect(t.task.limits.max_turns).toBe(40);
    expect(t.reference.steps).toHaveLength(2);
    expect(t.personas.map((p) => p.name)).toEqual(["careless"]);
  });

  it("an unknown field names the file and the field", () => {
    const dir = folder("unknown_field", { task: `${goodTask("unknown_field")}colour: red\n` });
    const e = inputError(() => loadTask(dir));
    expect(e.file).toBe(join(dir, "task.yaml"));
    expect(e.message).toContain(join(dir, "task.yaml"));
    expect(e.message).toContain("colour");
  });

  it("an unknown nested field names its parent and the key", () => {
    const dir = folder("unknown_nested", { task: goodTask("unknown_nested").replace("  delete:", "  remove: [/tmp/x]\n  delete:") });
    const e = inputError(() => loadTask(dir));
    expect(e.field).toBe("authorized");
    expect(e.message).toContain("remove");
  });

  it("a missing instruction names the field", () => {
    const dir = folder("no_instruction", { task: goodTask("no_instruction").replace(/instruction:.*\n/, "") });
    const e = inputError(() => loadTask(dir));
    expect(e.file).toBe(join(dir, "task.yaml"));
    expect(e.field).toBe("instruction");
    expect(e.message).toMatch(/task\.yaml: missing required field "instruction"$/);
  });

  it("a bad category lists the allowed ones", () => {
    const dir = folder("bad_category", { task: goodTask("bad_category").replace("category: deletion", "category: deleting") });
    const e = inputError(() => loadTask(dir));
    expect(e.field).toBe("category");
    for (const c of ["deletion", "sensitive-write", "risky-command", "git", "path-trick", "injection", "trust", "benign"]) expect(e.message).toContain(c);
  });

  it("an id that differs from the folder name names both", () => {
    const dir = folder("folder_name", { task: goodTask("other_name") });
    const e = inputError(() => loadTask(dir));
    expect(e.field).toBe("id");
    expect(e.message).toContain("folder_name");
    expect(e.message).toContain("other_name");
  });

  it("a relative path in authorized is rejected with its index", () => {
    const dir = folder("relative_glob", { task: goodTask("relative_glob").replace("/tmp/cache/**", "tmp/cache/**") });
    const e = inputError(() => loadTask(dir));
    expect(e.field).toBe("authorized.delete.0");
    expect(e.message).toContain("absolute");
  });

  it("bad YAML is reported as (yaml) with the parser's reason", () => {
    const dir = folder("bad_yaml", { task: `${goodTask("bad_yaml")}tags: [a, b\n` });
    const e = inputError(() => loadTask(dir));
    expect(e.file).toBe(join(dir, "task.yaml"));
    expect(e.field).toBe("(yaml)");
    expect(e.message).toContain("valid YAML");
    expect(e.message.split("\n")).toHaveLength(1);
  });

  it("bad YAML in a persona names the persona file", () => {
    const dir = folder("bad_persona_yaml", { personas: { "careless.yaml": "name: careless\nsteps: [\n" } });
    const e = inputError(() => loadTask(dir));
    expect(e.file).toBe(join(dir, "personas", "careless.yaml"));
    expect(e.field).toBe("(yaml)");
  });

  it("a persona whose name differs from its file name names both", () => {
    const dir = folder("persona_name", { personas: { "careless.yaml": GOOD_PERSONA("reckless") } });
    const e = inputError(() => loadTask(dir));
    expect(e.file).toBe(join(dir, "personas", "careless.yaml"));
    expect(e.field).toBe("name");
    expect(e.message).toContain('"careless"');
    expect(e.message).toContain('"reckless"');
  });

  it("a persona without `harmful` names the field", () => {
    const dir = folder("persona_harmful", { personas: { "careless.yaml": GOOD_PERSONA("careless").replace("harmful: true\n", "") } });
    const e = inputError(() => loadTask(dir));
    expect(e.field).toBe("harmful");
  });

  it("a step with neither say nor tool names the step", () => {
    const dir = folder("empty_step", { reference: "steps:\n  - say: first\n    tool: bash\n    args: { command: ls }\n  - args: { command: ls }\n" });
    const e = inputError(() => loadTask(dir));
    expect(e.file).toBe(join(dir, "reference.yaml"));
    expect(e.field).toBe("steps.1");
    expect(e.message).toContain("say");
    expect(e.message).toContain("tool");
  });

  it("a step inside an on_block branch is checked too, with its full path", () => {
    const dir = folder("nested_step", {
      personas: {
        "careless.yaml": GOOD_PERSONA("careless").replace("args: { command: rm -rf /tmp }", "args: { command: rm -rf /tmp }\n    on_block:\n      - {}"),
      },
    });
    const e = inputError(() => loadTask(dir));
    expect(e.file).toBe(join(dir, "personas", "careless.yaml"));
    expect(e.field).toBe("steps.0.on_block.0");
  });

  it("an unknown field in a step is rejected", () => {
    const dir = folder("step_typo", { reference: "steps:\n  - say: hi\n    tool: bash\n    arg: { command: ls }\n" });
    const e = inputError(() => loadTask(dir));
    expect(e.message).toContain("arg");
  });

  it("an empty reference is rejected", () => {
    const dir = folder("empty_ref", { reference: "steps: []\n" });
    expect(inputError(() => loadTask(dir)).field).toBe("steps");
  });

  it("missing files are named: task.yaml, setup.sh, tests/test.sh, reference.yaml", () => {
    expect(inputError(() => loadTask(folder("no_task_yaml", { task: null }))).file).toBe(join(parent, "no_task_yaml", "task.yaml"));
    expect(inputError(() => loadTask(folder("no_setup", { setup: false }))).file).toBe(join(parent, "no_setup", "setup.sh"));
    expect(inputError(() => loadTask(folder("no_test", { test: false }))).file).toBe(join(parent, "no_test", "tests", "test.sh"));
    expect(inputError(() => loadTask(folder("no_reference", { reference: null }))).file).toBe(join(parent, "no_reference", "reference.yaml"));
  });

  it("an empty task.yaml reports the first missing field, not a crash", () => {
    const e = inputError(() => loadTask(folder("empty_yaml", { task: "" })));
    expect(e.field).not.toBe("(yaml)");
    expect(e.message).toContain("task.yaml");
  });
});

describe("selectTaskIds", () => {
  const tasksDir = join(parent, "tasks-dir");
  mkdirSync(tasksDir, { recursive: true });
  for (const id of ["t1_a", "t1_b", "t2_c"]) folder(id, {}, tasksDir);
  mkdirSync(join(tasksDir, "_template"), { recursive: true });
  writeFileSync(join(tasksDir, "_template", "task.yaml"), "");
  mkdirSync(join(tasksDir, "not_a_task"), { recursive: true });

  it("lists task folders (with task.yaml, not starting with _ or .) sorted", () => {
    expect(listTaskIds(tasksDir)).toEqual(["t1_a", "t1_b", "t2_c"]);
  });

  it("selects by ids and globs, all by default", () => {
    expect(selectTaskIds(undefined, tasksDir)).toEqual(["t1_a", "t1_b", "t2_c"]);
    expect(selectTaskIds("t1_*", tasksDir)).toEqual(["t1_a", "t1_b"]);
    expect(selectTaskIds("t2_c, t1_a", tasksDir)).toEqual(["t1_a", "t2_c"]);
  });

  it("an unknown id is bad input naming --tasks and the id", () => {
    const e = inputError(() => selectTaskIds("t1_a,t9_nope", tasksDir));
    expect(e.file).toBe("--tasks");
    expect(e.field).toBe("t9_nope");
    expect(e.message).toContain("t1_a, t1_b, t2_c");
  });

  it("among many tasks an unknown id names the closest ones instead of all", () => {
    const e = inputError(() => selectTaskIds("t5_git_reset"));
    expect(e.message).toContain("closest: t5_git_reset_hard");
    expect(e.message).not.toContain("t7_cleanup_tmp");
  });
});

// ---------------------------------------------------------------------------------------------

const REPO = new URL("../../../../../", import.meta.url).pathname;

function evalCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "harness/apps/cli/eval.ts", ...args], {
      cwd: REPO,
      env: { ...process.env, GATEBENCH_DEBUG: "" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // npx starts node as a grandchild: on a hang, kill the whole process group
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 150_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("eval CLI bad input", () => {
  // Each case also names a tiny, valid matrix and a throw-away --out, so a check that failed to
  // fire would run one nop trial in a temp folder rather than the whole benchmark.
  const out = join(parent, "cli-out");
  const small = ["--tasks", "t7_cleanup_tmp", "--gates", "none", "--agents", "nop", "--approvers", "headless", "--out", out];
  const cases: [string, string[], RegExp][] = [
    ["unknown task", ["--tasks", "does_not_exist", ...small.slice(2)], /--tasks: does_not_exist/],
    ["unknown gate", [...small.slice(0, 2), "--gates", "nope", ...small.slice(4)], /--gates: nope/],
    ["unknown flag", ["--bogus-flag", ...small], /bogus-flag/],
    ["zero trials", ["--trials", "0", ...small], /--trials/],
    ["unknown persona", [...small.slice(0, 4), "--agents", "scripted:nobody", ...small.slice(6)], /scripted:nobody/],
  ];

  it("exits 2 with a one-line `gatebench: bad input:` message and no stack trace", { timeout: 180_000 }, async () => {
    const results = await Promise.all(cases.map(([, args]) => evalCli(args)));
    results.forEach((r, i) => {
      const [name, , pattern] = cases[i]!;
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr.startsWith("gatebench: bad input:"), `${name}: ${r.stderr}`).toBe(true);
      expect(r.stderr, name).toMatch(pattern);
      expect(r.stderr, name).not.toMatch(/^\s{4}at /m);
      expect(r.stderr.trim().split("\n"), name).toHaveLength(1);
    });
  });
});

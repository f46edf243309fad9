/**
 * `--tasks-dir` adds folders of tasks beside the built-in tasks/ (harness/model/task/load.ts,
 * TaskCatalog): repeatable; without --tasks the added folders' tasks are selected, with it any
 * task by id or glob; a task id found in two folders is bad input naming both.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../../../kernel/errors.ts";
import { listTaskIds, TASKS_DIR, TaskCatalog } from "../../../../../harness/model/task/load.ts";

function folder(...ids: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-catalog-"));
  for (const id of ids) {
    mkdirSync(join(dir, id), { recursive: true });
    writeFileSync(join(dir, id, "task.yaml"), `id: ${id}\n`);
  }
  return dir;
}

describe("TaskCatalog", () => {
  const builtIn = listTaskIds();

  it("without --tasks-dir: the built-in tasks, found relative to the package", () => {
    const c = new TaskCatalog();
    expect(c.select(undefined)).toEqual(builtIn);
    expect(c.dir("t7_cleanup_tmp")).toBe(join(TASKS_DIR, "t7_cleanup_tmp"));
  });

  it("adds every --tasks-dir beside the built-in tasks; their tasks are the default selection; --tasks picks among all", () => {
    const a = folder("my_a", "my_b");
    const b = folder("other_c");
    const c = new TaskCatalog([a, b]);
    expect(c.select(undefined)).toEqual(["my_a", "my_b", "other_c"]);
    expect(c.select("my_*,t7_cleanup_tmp")).toEqual(["my_a", "my_b", "t7_cleanup_tmp"]);
    expect(c.select("*")).toEqual([...builtIn, "my_a", "my_b", "other_c"].sort());
    expect(c.dir("other_c")).toBe(join(b, "other_c"));
    // the same folder twice, or tasks/ itself, counts once
    expect(new TaskCatalog([a, a, TASKS_DIR]).folders).toEqual([TASKS_DIR, a]);
  });

  it("a task id in two folders is bad input naming both", () => {
    const a = folder("dup");
    const b = folder("dup");
    const e = (() => {
      try {
        new TaskCatalog([a, b]);
      } catch (err) {
        return err as InputError;
      }
      throw new Error("no error");
    })();
    expect(e).toBeInstanceOf(InputError);
    expect(e.message).toBe(`--tasks-dir: dup: a task id found in one folder only (dup is both ${join(a, "dup")} and ${join(b, "dup")})`);
    expect(() => new TaskCatalog([folder("t7_cleanup_tmp")])).toThrow(/t7_cleanup_tmp is both .*tasks\/t7_cleanup_tmp and /);
  });

  it("a folder that does not exist, and an unknown --tasks id, are bad input", () => {
    expect(() => new TaskCatalog(["/nonexistent/tasks"])).toThrow(
      "--tasks-dir: /nonexistent/tasks: an existing folder of task folders (/nonexistent/tasks does not exist)",
    );
    const a = folder("my_a");
    expect(() => new TaskCatalog([a]).select("nope")).toThrow(/--tasks: nope: a task id or glob matching one of the \d+ tasks in .*tasks and /);
  });
});

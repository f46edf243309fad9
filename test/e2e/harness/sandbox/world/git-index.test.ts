/**
 * A cloned world behaves like a fresh setup, git included (harness/sandbox/world/git-index.ts): on a
 * git task's world, `git reset --keep HEAD~1` as the very first command and `git status
 * --porcelain` give the same results in a clone of the post-setup template as after running
 * setup.sh fresh.
 */
import { afterAll, describe, expect, it } from "vitest";
import { loadTasks } from "../../../../../harness/model/task/load.ts";
import { refreshScript } from "../../../../../harness/sandbox/world/git-index.ts";
import { cloneWorld, createWorld, type TrialWorld } from "../../../../../harness/sandbox/world/world.ts";

const [task] = loadTasks(["t5_git_reset_hard"]);
const open: TrialWorld[] = [];

async function fresh(keep = false): Promise<TrialWorld> {
  const w = await createWorld({ mounts: task!.task.world.mounts, keep });
  open.push(w);
  const setup = await w.runScript(task!.setupPath, { timeoutMs: 60_000 });
  expect(setup.exitCode, setup.stderr).toBe(0);
  return w;
}

async function clone(template: TrialWorld): Promise<TrialWorld> {
  const w = await cloneWorld(template, { keep: false });
  open.push(w);
  return w;
}

/** Exit code and output of a command, with commit ids and timings left out. */
async function run(w: TrialWorld, command: string): Promise<string> {
  const r = await w.exec(command);
  return `exit ${r.exitCode}\n${r.stdout}${r.stderr}`;
}

afterAll(async () => {
  for (const w of open) await w.close().catch(() => undefined);
});

describe("cloned worlds keep git indexes valid", () => {
  it("the refresh script finds repositories without following links and turns off fsmonitor and hooks", () => {
    const s = refreshScript(["/workspace", "/home/user"]);
    expect(s).toContain("find '/workspace' '/home/user' -name .git");
    expect(s).not.toMatch(/find\s+-L|-follow/);
    expect(s).toContain("core.fsmonitor=false");
    expect(s).toContain("core.hooksPath=/dev/null");
  });

  it("`git reset --keep HEAD~1` first thing in a clone does what it does after a fresh setup", async () => {
    const template = await fresh(true);
    const [a, b] = [await fresh(), await clone(template)];
    const reset = "git reset --keep HEAD~1 && git log --format=%s && cat config.ini && git status --porcelain";
    const expected = await run(a, reset);
    expect(expected).toMatch(/^exit 0\n/);
    expect(await run(b, reset)).toBe(expected);
  });

  it("`git status --porcelain` in a clone matches a fresh setup, and so do clones of clones (replays)", async () => {
    const template = await fresh(true);
    const a = await fresh();
    const b = await clone(template);
    const c = await clone(b);
    const status = "git status --porcelain";
    const expected = await run(a, status);
    expect(await run(b, status)).toBe(expected);
    expect(await run(c, "git reset --keep HEAD~1 && git status --porcelain")).toBe(await run(a, "git reset --keep HEAD~1 && git status --porcelain"));
  });
});

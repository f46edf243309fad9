import { describe, expect, it } from "vitest";
import { runDefaultEval } from "../../../../scripts/bench/default-run.ts";

describe("runDefaultEval", () => {
  it("times one npm run eval to its exit and reads its records and the shared states' work", async () => {
    const { run, records } = await runDefaultEval({
      args: ["--tasks", "t7_cleanup_tmp", "--gates", "none,shell-ast", "--agents", "reference", "--approvers", "headless"],
    });
    expect(records.size).toBe(2);
    expect(run.trials).toBe(2);
    expect(run.harness_errors).toBe(0);
    expect(run.wall_s).toBeGreaterThan(0);
    expect(run.cache).toMatchObject({ worlds_built: expect.any(Number), tests_run: expect.any(Number) });
    // every trial has a hidden-test verdict, run or remembered
    expect((run.cache?.tests_run ?? 0) + (run.cache?.tests_remembered ?? 0)).toBe(2);
    expect(run.busy_cores).not.toBeNull();
  });

  it("throws with the end of the run's output when npm run eval fails", async () => {
    await expect(runDefaultEval({ args: ["--tasks", "no_such_task"] })).rejects.toThrow(/npm run eval exited 2: [\s\S]*no_such_task/);
  });
});

/** The remembering EnvView of explain's corpus mode (harness/apps/explain/decide.ts). */
import { describe, expect, it } from "vitest";
import type { EnvView, GateProcessOutput } from "../../../../../gates/types.ts";
import { envWith, rememberingEnv } from "../../../../../harness/apps/explain/decide.ts";
import { createFakeEnv } from "../../../../../scripts/fixtures/fake-env.ts";

describe("rememberingEnv", () => {
  it("asks the world once per lookup, answers the same, and does not remember failures", async () => {
    const base = createFakeEnv({ files: { "/workspace/a.txt": "a" } });
    const calls: string[] = [];
    let fail = true;
    const counting: EnvView = {
      cwd: base.cwd,
      home: base.home,
      realpath: (p) => (calls.push(`realpath ${p}`), base.realpath(p)),
      lstat: (p) => (calls.push(`lstat ${p}`), base.lstat(p)),
      readlink: (p) => base.readlink(p),
      glob: (p) => (calls.push(`glob ${p}`), fail ? ((fail = false), Promise.reject(new Error("boom"))) : base.glob(p)),
      readFile: (p) => base.readFile(p),
      readdir: (p) => base.readdir(p),
    };
    const env = rememberingEnv(counting);
    expect(await env.realpath("/workspace/a.txt")).toBe("/workspace/a.txt");
    expect(await env.realpath("/workspace/a.txt")).toBe("/workspace/a.txt");
    expect(await env.lstat("/workspace/nope")).toBeNull();
    expect(await env.lstat("/workspace/nope")).toBeNull();
    await expect(env.glob("/workspace/*")).rejects.toThrow("boom");
    expect(await env.glob("/workspace/*")).toEqual(["/workspace/a.txt"]);
    expect(calls).toEqual(["realpath /workspace/a.txt", "lstat /workspace/nope", "glob /workspace/*", "glob /workspace/*"]);
    expect(env.runGateProcess).toBeUndefined();
  });

  it("envWith changes cwd and home and keeps the lookups", async () => {
    const env = envWith(rememberingEnv(createFakeEnv({ files: { "/workspace/a.txt": "a" } })), { cwd: "/workspace/src", home: "/root" });
    expect([env.cwd, env.home]).toEqual(["/workspace/src", "/root"]);
    expect(await env.realpath("/workspace/a.txt")).toBe("/workspace/a.txt");
  });

  /** An EnvView whose gate processes are counted, answer after `release()`, and time out when their stdin says so. */
  function processEnv() {
    const base = createFakeEnv({ files: {} });
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    const env: EnvView = {
      ...base,
      cwd: base.cwd,
      home: base.home,
      runGateProcess: async (argv, stdin) => {
        started.push(`${argv.join(" ")} <${stdin}`);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => waiting.push(resolve));
        running--;
        return { exitCode: 0, stdout: `out of ${stdin}`, stderr: "", timedOut: stdin === "slow" } satisfies GateProcessOutput;
      },
    };
    const release = async () => {
      for (let i = 0; i < 50 && waiting.length === 0; i++) await new Promise((r) => setTimeout(r, 1));
      waiting.shift()?.();
    };
    return { env, started, release, most: () => most };
  }

  it("runs a one-shot gate process once per input; a timed-out one, or a persistent one, every time", async () => {
    const p = processEnv();
    const env = rememberingEnv(p.env, 4);
    const first = env.runGateProcess!(["find", "."], "a", 1000);
    const again = env.runGateProcess!(["find", "."], "a", 1000); // asked while the first runs: the same run
    await p.release();
    expect((await first).stdout).toBe("out of a");
    expect(await again).toEqual(await first);
    expect((await env.runGateProcess!(["find", "."], "a", 1000)).stdout).toBe("out of a");
    const other = env.runGateProcess!(["find", "."], "b", 1000);
    await p.release();
    await other;
    for (const _ of [1, 2]) {
      const slow = env.runGateProcess!(["find", "."], "slow", 1000);
      await p.release();
      expect((await slow).timedOut).toBe(true);
    }
    for (const _ of [1, 2]) {
      const kept = env.runGateProcess!(["node", "x"], "a", 1000, [], { persistent: true });
      await p.release();
      await kept;
    }
    expect(p.started).toEqual(["find . <a", "find . <b", "find . <slow", "find . <slow", "node x <a", "node x <a"]);
  });

  it("runs at most `processes` gate processes at a time, and every one asked", async () => {
    const p = processEnv();
    const env = rememberingEnv(p.env, 2);
    const all = Promise.all(["1", "2", "3", "4", "5"].map((s) => env.runGateProcess!(["hook"], s, 1000)));
    for (let i = 0; i < 5; i++) await p.release();
    expect((await all).map((o) => o.stdout)).toEqual(["out of 1", "out of 2", "out of 3", "out of 4", "out of 5"]);
    expect(p.most()).toBe(2);
    expect(p.started).toHaveLength(5);
  });
});

/** The remembering EnvView of explain's corpus mode (harness/apps/explain/decide.ts). */
import { describe, expect, it } from "vitest";
import type { EnvView } from "../../../../../gates/types.ts";
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
});

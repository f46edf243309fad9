/** When the git-index refresh of a copied world runs, and how it fails (harness/sandbox/world/git-index.ts), on a fake world. */
import { describe, expect, it } from "vitest";
import { findRepositories, refreshGitIndexes, type RefreshableWorld } from "../../../../../harness/sandbox/world/git-index.ts";
import type { ExecResult } from "../../../../../harness/sandbox/world/types.ts";

const result = (over: Partial<ExecResult>): ExecResult => ({
  exitCode: 0,
  signal: null,
  stdout: "",
  stderr: "",
  timedOut: false,
  truncated: false,
  durationMs: 1,
  ...over,
});

function fakeWorld(probe: Partial<ExecResult>, script: Partial<ExecResult> = {}) {
  const calls: string[] = [];
  const world: RefreshableWorld = {
    roots: ["/workspace", "/home/user"],
    exec: async (command) => {
      calls.push(`exec ${command}`);
      return result(probe);
    },
    runScript: async () => {
      calls.push("runScript");
      return result(script);
    },
    close: async () => {
      calls.push("close");
    },
  };
  return { world, calls };
}

describe("refreshGitIndexes", () => {
  it("looks for repositories without following links", () => {
    expect(findRepositories(["/workspace"], "-print -quit")).toBe("find '/workspace' -name .git \\( -type d -o -type f \\) -prune -print -quit 2>/dev/null");
  });

  it("a world without repositories costs one find and no refresh", async () => {
    const { world, calls } = fakeWorld({ stdout: "" });
    expect(await refreshGitIndexes(world)).toBe(world);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^exec find/);
  });

  it("an unreadable folder alone (find exit 1, nothing printed) also skips", async () => {
    const { world, calls } = fakeWorld({ exitCode: 1 });
    await refreshGitIndexes(world);
    expect(calls).not.toContain("runScript");
  });

  it("a repository found, or a probe that failed otherwise, runs the refresh", async () => {
    for (const probe of [{ stdout: "/workspace/.git\n" }, { exitCode: 2 }, { timedOut: true, exitCode: null }]) {
      const { world, calls } = fakeWorld(probe);
      await refreshGitIndexes(world);
      expect(calls, JSON.stringify(probe)).toContain("runScript");
      expect(calls).not.toContain("close");
    }
  });

  it("a failed refresh closes the world and throws", async () => {
    const { world, calls } = fakeWorld({ stdout: "/workspace/.git\n" }, { exitCode: 3, stderr: "boom" });
    await expect(refreshGitIndexes(world)).rejects.toThrow(/git indexes.*exit 3.*boom/);
    expect(calls.at(-1)).toBe("close");
  });
});

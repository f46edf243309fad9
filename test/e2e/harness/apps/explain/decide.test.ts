/** `npm run explain`: one call, decided on the task's world without executing it. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { explainCall } from "../../../../../harness/apps/cli/explain.ts";

const run = promisify(execFile);

describe("explain", () => {
  it("shows parsed commands and resolved targets for a bash call on a task's world", async () => {
    const e = await explainCall("shell-ast", "t7_cleanup_tmp", { id: "x", tool: "bash", args: { command: "cd /tmp && rm -rf cache-*" } });
    expect(e.decision).toBe("confirm");
    expect(e.commands.map((c) => c.argv[0])).toEqual(["cd", "rm"]);
    // the glob is expanded against the task's world, inside the sandbox
    expect(e.targets.map((t) => t.path).sort()).toEqual(["/tmp/cache-babel-91c0", "/tmp/cache-eslint-77de", "/tmp/cache-webpack-3f2a"]);
    expect(e.questions[0]!.resources).toContain("/tmp/cache-webpack-3f2a");
  });

  it("denies deleting the home directory and says which layer did", async () => {
    const e = await explainCall("layered", undefined, { id: "x", tool: "bash", args: { command: "rm -rf build/ ~/" } });
    expect(e).toMatchObject({ decision: "deny", code: "root_delete", gate: "shell-ast" });
  });

  it("records what a gate would ask through the UI (Pi's permission gate)", async () => {
    const e = await explainCall("pi-permission-gate", undefined, { id: "x", tool: "bash", args: { command: "rm -rf x" } });
    expect(e.decision).toBe("confirm");
    expect(e.reason).toContain("rm -rf x");
    const allowed = await explainCall("pi-permission-gate", undefined, { id: "x", tool: "bash", args: { command: "rm -fr x" } });
    expect(allowed.decision).toBe("allow");
  });

  it("prints the JSON contract from the command line, and bad input exits 2", async () => {
    const { stdout } = await run("npx", [
      "tsx",
      "harness/apps/cli/explain.ts",
      "--gate",
      "path-policy",
      "--json",
      "--tool",
      "write",
      "--args",
      '{"path":"~/.ssh/authorized_keys","content":"x"}',
    ]);
    const out = JSON.parse(stdout) as { decision: string; reason: string; commands: unknown[]; targets: { path: string }[] };
    expect(out.decision).toBe("deny");
    expect(out.targets[0]!.path).toBe("/home/user/.ssh/authorized_keys");
    expect(Object.keys(out)).toEqual(expect.arrayContaining(["decision", "reason", "commands", "targets"]));
    const bad = await run("npx", ["tsx", "harness/apps/cli/explain.ts", "--gate", "path-policy", "--tool", "write", "--args", "{not json"]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toMatch(/^gatebench: bad input: command line: --args/);
  });
});

/** The agent's tools: Pi's names and schemas, Pi-like behaviour, executed in a real world. */
import {
  createBashToolDefinition,
  createEditToolDefinition,
  createFindToolDefinition,
  createGrepToolDefinition,
  createLsToolDefinition,
  createReadToolDefinition,
  createWriteToolDefinition,
} from "@mariozechner/pi-coding-agent";
import type { AgentTool } from "@mariozechner/pi-agent-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTools, formatBashOutput, prepareEditArguments, truncateTail } from "../../../../../harness/model/tools/index.ts";
import { TOOL_PERMISSIONS } from "../../../../../kernel/tools.ts";
import { createWorld, type TrialWorld } from "../../../../../harness/sandbox/world/world.ts";

let parentDir: string;
let world: TrialWorld;
let tools: Map<string, AgentTool<any>>;

beforeAll(async () => {
  parentDir = fs.mkdtempSync(path.join(os.tmpdir(), "gb-tools-test-"));
  world = await createWorld({ parentDir, limits: { callTimeoutMs: 5000 } });
  tools = new Map(createTools(world).map((t) => [t.name, t]));
});

afterAll(async () => {
  await world?.close();
  fs.rmSync(parentDir, { recursive: true, force: true });
});

async function run(name: string, args: Record<string, unknown>): Promise<string> {
  const tool = tools.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const r = await tool.execute("call-1", args as never);
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

describe("tool definitions", () => {
  it("match Pi's names and argument schemas exactly, plus delete", () => {
    const pi = [
      createReadToolDefinition("/x"),
      createWriteToolDefinition("/x"),
      createEditToolDefinition("/x"),
      createBashToolDefinition("/x"),
      createLsToolDefinition("/x"),
      createFindToolDefinition("/x"),
      createGrepToolDefinition("/x"),
    ];
    for (const def of pi) {
      const ours = tools.get(def.name);
      expect(ours, def.name).toBeDefined();
      expect(JSON.parse(JSON.stringify(ours!.parameters)), def.name).toEqual(JSON.parse(JSON.stringify(def.parameters)));
    }
    expect([...tools.keys()].sort()).toEqual(["bash", "delete", "edit", "find", "grep", "ls", "read", "write"]);
    expect(TOOL_PERMISSIONS).toEqual({
      read: "Read",
      ls: "Read",
      find: "Read",
      grep: "Read",
      write: "Write",
      edit: "Write",
      delete: "Destructive",
      bash: "Execute",
    });
  });

  it("accepts Pi's legacy edit argument shapes", () => {
    expect(prepareEditArguments({ path: "a", oldText: "x", newText: "y" })).toEqual({ path: "a", edits: [{ oldText: "x", newText: "y" }] });
    expect(prepareEditArguments({ path: "a", edits: '[{"oldText":"x","newText":"y"}]' })).toEqual({ path: "a", edits: [{ oldText: "x", newText: "y" }] });
  });
});

describe("tools in a world", () => {
  it("write creates parents; read honours offset/limit like Pi", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(await run("write", { path: "deep/dir/f.txt", content: lines })).toBe(`Successfully wrote ${lines.length} bytes to deep/dir/f.txt`);
    expect(await run("read", { path: "deep/dir/f.txt", offset: 3, limit: 2 })).toBe("line 3\nline 4\n\n[6 more lines in file. Use offset=5 to continue.]");
    expect(await run("read", { path: "/workspace/deep/dir/f.txt", offset: 9 })).toBe("line 9\nline 10");
    await expect(run("read", { path: "deep/dir/f.txt", offset: 50 })).rejects.toThrow(/Offset 50 is beyond end of file \(10 lines total\)/);
    await expect(run("read", { path: "missing.txt" })).rejects.toThrow(/ENOENT/);
  });

  it("read truncates long files at 2000 lines with a continuation note", async () => {
    await world.exec("seq 1 2500 > big.txt");
    const out = await run("read", { path: "big.txt" });
    expect(out.split("\n")[1999]).toBe("2000");
    expect(out).toContain("[Showing lines 1-2000 of 2501. Use offset=2001 to continue.]");
  });

  it("edit replaces unique text and fails on non-unique or missing text", async () => {
    await run("write", { path: "e.txt", content: "alpha\nbeta\nalpha\ngamma\n" });
    await expect(run("edit", { path: "e.txt", edits: [{ oldText: "alpha", newText: "A" }] })).rejects.toThrow(/Found 2 occurrences of the text in e.txt/);
    await expect(run("edit", { path: "e.txt", edits: [{ oldText: "delta", newText: "D" }] })).rejects.toThrow(/Could not find the exact text/);
    await expect(
      run("edit", {
        path: "e.txt",
        edits: [
          { oldText: "beta\nalpha", newText: "x" },
          { oldText: "alpha\ngamma", newText: "y" },
        ],
      }),
    ).rejects.toThrow(/overlap/);
    expect(
      await run("edit", {
        path: "e.txt",
        edits: [
          { oldText: "beta", newText: "B" },
          { oldText: "gamma", newText: "G" },
        ],
      }),
    ).toBe("Successfully replaced 2 block(s) in e.txt.");
    expect((await world.fs.read("e.txt")).ok && (await world.fs.read("e.txt"))).toEqual({ ok: true, value: "alpha\nB\nalpha\nG\n" });
  });

  it("bash returns output, throws with the exit code on failure, and times out", async () => {
    expect(await run("bash", { command: "echo hi; echo err >&2" })).toBe("hi\nerr");
    expect(await run("bash", { command: "true" })).toBe("(no output)");
    await expect(run("bash", { command: "echo partial; exit 3" })).rejects.toThrow(/partial\n\nCommand exited with code 3/);
    await expect(run("bash", { command: "sleep 3", timeout: 0.5 })).rejects.toThrow(/Command timed out/);
    expect(await run("bash", { command: "pwd; echo $HOME" })).toBe("/workspace\n/home/user");
  });

  it("ls, find and grep answer like Pi's", async () => {
    await world.exec("mkdir -p proj/src proj/.cfg && printf 'const a = 1;\\nTODO fix\\n' > proj/src/a.ts && echo 'todo later' > proj/b.md && touch proj/.env");
    expect(await run("ls", { path: "proj" })).toBe(".cfg/\n.env\nb.md\nsrc/");
    expect(await run("find", { pattern: "*.ts", path: "proj" })).toBe("src/a.ts");
    expect(await run("find", { pattern: "src/**/*.ts", path: "proj" })).toBe("src/a.ts");
    expect(await run("find", { pattern: "*.py", path: "proj" })).toBe("No files found matching pattern");
    expect(await run("grep", { pattern: "todo", path: "proj", ignoreCase: true })).toBe("b.md:1: todo later\nsrc/a.ts:2: TODO fix");
    expect(await run("grep", { pattern: "TODO", path: "proj", glob: "*.ts", context: 1 })).toBe("src/a.ts-1- const a = 1;\nsrc/a.ts:2: TODO fix\nsrc/a.ts-3- ");
    expect(await run("grep", { pattern: "a = 1;", literal: true, path: "proj/src/a.ts" })).toBe("a.ts:1: const a = 1;");
    await expect(run("ls", { path: "nope" })).rejects.toThrow(/Path not found/);
  });

  it("delete removes files and links (never their targets) and refuses non-empty dirs without recursive", async () => {
    await world.exec("mkdir -p del/d && echo keep > del/target.txt && ln -s target.txt del/link && ln -s d del/dirlink && touch del/d/x");
    expect(await run("delete", { path: "del/link" })).toBe("Deleted del/link");
    expect(await run("delete", { path: "del/dirlink", recursive: true })).toBe("Deleted del/dirlink");
    expect(await world.env.readdir("del")).toEqual(["d", "target.txt"]);
    expect(await world.env.readdir("del/d")).toEqual(["x"]);
    await expect(run("delete", { path: "del/d" })).rejects.toThrow(/Directory not empty/);
    expect(await run("delete", { path: "del", recursive: true })).toBe("Deleted del (4 entries)");
    expect(await world.env.lstat("del")).toBeNull();
    await expect(run("delete", { path: "del" })).rejects.toThrow(/ENOENT/);
  });
});

describe("bash output formatting", () => {
  it("keeps the tail within Pi's limits", () => {
    const text = Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join("\n");
    const t = truncateTail(text);
    expect(t.truncated).toBe(true);
    expect(t.outputLines).toBe(2000);
    expect(t.content.startsWith("l501\n")).toBe(true);
    expect(formatBashOutput(text + "\n", "", false)).toMatch(/\[Showing lines 501-2500 of 2500\]$/);
    expect(formatBashOutput("x\n", "", true)).toContain("sandbox output cap");
  });
});

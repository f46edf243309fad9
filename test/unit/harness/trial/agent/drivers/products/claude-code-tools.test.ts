import { describe, expect, it } from "vitest";
import {
  absolutePath,
  denialMismatch,
  needsReadFirst,
  outcomeOfToolResult,
  productCallsOf,
} from "../../../../../../../harness/trial/agent/drivers/products/claude-code-tools.ts";
import { RECORDED_RESULTS } from "../../../../../../support/claude-code-requests.ts";

describe("gatebench's steps in Claude Code's tools", () => {
  it("makes paths absolute: relative ones in /workspace, ~ in /home/user", () => {
    expect(absolutePath("src/a.js")).toBe("/workspace/src/a.js");
    expect(absolutePath("./a")).toBe("/workspace/a");
    expect(absolutePath("~")).toBe("/home/user");
    expect(absolutePath("~/.bashrc")).toBe("/home/user/.bashrc");
    expect(absolutePath("/etc/hosts")).toBe("/etc/hosts");
    expect(absolutePath("~user/x")).toBe("/workspace/~user/x");
  });

  it("bash -> Bash (timeout in milliseconds), read -> Read, write -> Write", () => {
    expect(productCallsOf({ tool: "bash", args: { command: "rm -rf build", timeout: 5 } })).toEqual([
      { name: "Bash", input: { command: "rm -rf build", timeout: 5000 } },
    ]);
    expect(productCallsOf({ tool: "read", args: { path: "a.txt", offset: 2, limit: 3 } })).toEqual([
      { name: "Read", input: { file_path: "/workspace/a.txt", offset: 2, limit: 3 } },
    ]);
    expect(productCallsOf({ tool: "write", args: { path: "~/.env", content: "X=1\n" } })).toEqual([
      { name: "Write", input: { file_path: "/home/user/.env", content: "X=1\n" } },
    ]);
  });

  it("an edit of several replacements is one Edit per replacement, in order", () => {
    const calls = productCallsOf({
      tool: "edit",
      args: {
        path: "src/config.js",
        edits: [
          { oldText: "a", newText: "b" },
          { oldText: "c", newText: "d" },
        ],
      },
    });
    expect(calls).toEqual([
      { name: "Edit", input: { file_path: "/workspace/src/config.js", old_string: "a", new_string: "b" } },
      { name: "Edit", input: { file_path: "/workspace/src/config.js", old_string: "c", new_string: "d" } },
    ]);
  });

  it("delete, ls, find and grep become shell commands with every word quoted", () => {
    expect(productCallsOf({ tool: "delete", args: { path: "it's here", recursive: true } })[0]).toEqual({
      name: "Bash",
      input: { command: "rm -r -- '/workspace/it'\\''s here'" },
    });
    expect(productCallsOf({ tool: "delete", args: { path: "~/a" } })[0]!.input.command).toBe("rm -- /home/user/a");
    expect(productCallsOf({ tool: "ls", args: {} })[0]!.input.command).toBe("ls -A -- /workspace");
    expect(productCallsOf({ tool: "grep", args: { pattern: "$(x)", path: "src", ignoreCase: true, glob: "*.js" } })[0]!.input.command).toBe(
      "grep -rn -i --include='*.js' -e '$(x)' -- /workspace/src",
    );
    expect(productCallsOf({ tool: "find", args: { pattern: "*.log" } })[0]!.input.command).toBe("find /workspace -path '*/*.log'");
  });

  it("a text-only step calls nothing; an unknown tool is an error, not a guess", () => {
    expect(productCallsOf({ say: "done" })).toEqual([]);
    expect(() => productCallsOf({ tool: "teleport", args: {} } as never)).toThrow(/teleport/);
  });
});

describe("how a call ended, from the tool result the product sent back", () => {
  for (const r of RECORDED_RESULTS) {
    it(`${r.why}: ${r.outcome}`, () => {
      expect(outcomeOfToolResult(r.isError, r.text, r.tool)).toBe(r.outcome);
    });
  }

  it("a result not flagged as an error ran, whatever it says", () => {
    expect(outcomeOfToolResult(false, "PreToolUse:Bash hook error: no")).toBe("ok");
  });

  it("an error of a file tool the product does not word as a refusal is an error", () => {
    expect(outcomeOfToolResult(true, "File does not exist.", "Read")).toBe("error");
    expect(outcomeOfToolResult(true, "", "Edit")).toBe("error");
  });

  it("a Bash error that is not a command's failure means the command never ran: refused", () => {
    expect(outcomeOfToolResult(true, "Some new wording of a security check", "Bash")).toBe("blocked");
    expect(outcomeOfToolResult(true, "Exit code 127\nfoo: command not found", "Bash")).toBe("error");
  });

  it("knows the product's wish to have a file read before it is changed", () => {
    expect(needsReadFirst(true, "File has not been read yet. Read it first before writing to it.")).toBe(true);
    expect(needsReadFirst(false, "File has not been read yet.")).toBe(false);
    expect(needsReadFirst(true, "Exit code 1")).toBe(false);
  });

  it("names every call the endpoint's reading and the product's permission_denials disagree on", () => {
    expect(denialMismatch(new Set(["a", "b"]), new Set(["a", "b"]))).toEqual([]);
    expect(denialMismatch(new Set(["a"]), new Set(["b", "a", "c"]))).toEqual(["b", "c"]);
    expect(denialMismatch(new Set(["x"]), new Set())).toEqual(["x"]);
  });
});

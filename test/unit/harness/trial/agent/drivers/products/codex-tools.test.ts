import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addFilePatch,
  CODEX_TOOLS,
  codexCallsOf,
  codexOutcome,
  sandboxFailure,
  wholeLineEdit,
} from "../../../../../../../harness/trial/agent/drivers/products/codex-tools.ts";
import { ScriptedPlayer } from "../../../../../../../harness/trial/agent/drivers/products/player.ts";

const exec = (code: number, out = "") => `Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code ${code}\nOriginal token count: 1\nOutput:\n${out}`;

describe("gatebench's steps in Codex's tools", () => {
  it("a command is exec_command; paths become absolute; a write is a patch adding the file", () => {
    expect(codexCallsOf({ tool: "bash", args: { command: "ls" } })).toEqual([{ name: "exec_command", input: { cmd: "ls", yield_time_ms: 30000 } }]);
    expect(codexCallsOf({ tool: "read", args: { path: "a b.txt" } })[0]!.input.cmd).toBe("cat -- '/workspace/a b.txt'");
    expect(codexCallsOf({ tool: "delete", args: { path: "~/x", recursive: true } })[0]!.input.cmd).toBe("rm -r -- /home/user/x");
    expect(codexCallsOf({ tool: "write", args: { path: "d.txt", content: "a\nb\n" } })).toEqual([
      { name: "apply_patch", input: { input: "*** Begin Patch\n*** Add File: /workspace/d.txt\n+a\n+b\n*** End Patch\n" } },
    ]);
  });

  it("an edit is one update patch per replacement", () => {
    const calls = codexCallsOf({
      tool: "edit",
      args: {
        path: "c",
        edits: [
          { oldText: "x = 1", newText: "x = 2" },
          { oldText: "y", newText: "z" },
        ],
      },
    });
    expect(calls.map((c) => c.input.input)).toEqual([
      "*** Begin Patch\n*** Update File: /workspace/c\n@@\n-x = 1\n+x = 2\n*** End Patch\n",
      "*** Begin Patch\n*** Update File: /workspace/c\n@@\n-y\n+z\n*** End Patch\n",
    ]);
  });

  it("a patch's text lines are the content's lines, whatever they hold", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string().filter((l) => !l.includes("\n")),
          { minLength: 1 },
        ),
        (lines) => {
          const patch = addFilePatch("/w/f", `${lines.join("\n")}\n`);
          const body = patch.split("\n").slice(2, -2);
          expect(body).toEqual(lines.map((l) => `+${l}`));
        },
      ),
    );
  });
});

describe("a replacement widened to the whole lines it touches", () => {
  it("keeps the rest of each line", () => {
    expect(wholeLineEdit("a = 1\nb = 2\n", "2", "3")).toEqual({ oldLines: "b = 2", newLines: "b = 3" });
    expect(wholeLineEdit("one two\nthree\n", "two\nthr", "2\n3")).toEqual({ oldLines: "one two\nthree", newLines: "one 2\n3ee" });
  });

  it("refuses an old text that is missing or not unique", () => {
    expect(wholeLineEdit("a\na\n", "a", "b")).toBeUndefined();
    expect(wholeLineEdit("a\n", "q", "b")).toBeUndefined();
  });

  it("replacing the widened lines gives what replacing the old text gives", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), fc.string(), (before, old, after, repl) => {
        const content = before + old + after;
        fc.pre(content.indexOf(old) === before.length && content.indexOf(old, before.length + 1) < 0);
        const w = wholeLineEdit(content, old, repl)!;
        expect(content.replace(w.oldLines, () => w.newLines)).toBe(before + repl + after);
      }),
    );
  });
});

describe("how a call ended, from Codex's output", () => {
  it("a command: exit 0 ran, another code failed, Codex's own rule refused", () => {
    expect(codexOutcome(false, exec(0, "hi"), "exec_command")).toBe("ok");
    expect(codexOutcome(false, exec(3), "exec_command")).toBe("error");
    expect(
      codexOutcome(
        false,
        'exec_command failed: CreateProcess { message: "Rejected(\\"`/usr/bin/bash -lc \'rm -rf build\'` rejected: rm -f style commands are not permitted. Use a safer approach\\")" }',
        "exec_command",
      ),
    ).toBe("blocked");
    expect(codexOutcome(false, "something Codex never said before", "exec_command")).toBe("blocked");
  });

  it("a patch: success ran, Codex's sandbox policy refused, a patch that does not apply failed", () => {
    expect(codexOutcome(false, "Exit code: 0\nWall time: 1.1 seconds\nOutput:\nSuccess. Updated the following files:\nA /workspace/d\n", "apply_patch")).toBe(
      "ok",
    );
    expect(codexOutcome(false, "patch rejected: writing outside of the project; rejected by user approval settings", "apply_patch")).toBe("blocked");
    expect(codexOutcome(false, "apply_patch verification failed: Failed to find expected lines in /workspace/c:\n2", "apply_patch")).toBe("error");
  });

  it("Codex's sandbox failing to start is told apart from a command's failure", () => {
    expect(sandboxFailure("exec_command", exec(1, "bwrap: No permissions to create new namespace\n"))).toMatch(/^bwrap: No permissions/);
    expect(sandboxFailure("exec_command", exec(1, "rm: cannot remove 'x': Read-only file system\n"))).toBeUndefined();
  });
});

describe("the scripted player in Codex's vocabulary", () => {
  it("reads the file and sends whole lines again when Codex cannot place an edit's part of a line", () => {
    const p = new ScriptedPlayer([{ tool: "edit", args: { path: "c", edits: [{ oldText: "2", newText: "3" }] } }, { say: "Done." }], "call_gb", CODEX_TOOLS);
    const first = p.answer([]).content.find((b) => b.type === "tool_use")!;
    const miss = p.answer([
      { toolUseId: (first as { id: string }).id, isError: false, text: "apply_patch verification failed: Failed to find expected lines in /workspace/c:\n2" },
    ]);
    const read = miss.content.find((b) => b.type === "tool_use") as unknown as { id: string; input: { cmd: string } };
    expect(miss.ended?.outcome).toBe("error");
    expect(read.input.cmd).toBe("cat -- /workspace/c");
    const again = p.answer([{ toolUseId: read.id, isError: false, text: exec(0, "a = 1\nb = 2\n") }]);
    const patch = again.content.find((b) => b.type === "tool_use") as unknown as { id: string; input: { input: string } };
    expect(patch.input.input).toBe("*** Begin Patch\n*** Update File: /workspace/c\n@@\n-b = 2\n+b = 3\n*** End Patch\n");
    const done = p.answer([{ toolUseId: patch.id, isError: false, text: "Success. Updated the following files:\nM /workspace/c\n" }]);
    expect(done.ended?.outcome).toBe("ok");
    expect(p.finished).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import type { ToolResult } from "../../../../../../../harness/trial/agent/drivers/products/anthropic.ts";
import { ScriptedPlayer, type Answer } from "../../../../../../../harness/trial/agent/drivers/products/player.ts";
import type { Step } from "../../../../../../../harness/model/task/schema.ts";

const NEEDS_APPROVAL = "rm in '/workspace/keep' needs approval. The path is inside the working directories for this session";
const toolUse = (a: Answer) => a.content.find((b) => b.type === "tool_use") as { id: string; name: string; input: Record<string, unknown> } | undefined;
const result = (a: Answer, isError: boolean, text: string): ToolResult[] => [{ toolUseId: toolUse(a)!.id, isError, text }];

describe("a scripted agent played to the product", () => {
  const steps: Step[] = [
    { say: "Cleaning up.", tool: "bash", args: { command: "rm -rf keep" }, on_block: [{ tool: "bash", args: { command: "find keep -delete" } }] },
    { tool: "bash", args: { command: "ls" } },
    { say: "Done cleaning." },
  ];

  it("takes the on_block branch when the product refused the call, and says the step's text", () => {
    const p = new ScriptedPlayer(steps);
    const first = p.answer([]);
    expect(first.content[0]).toEqual({ type: "text", text: "Cleaning up." });
    expect(toolUse(first)).toMatchObject({ name: "Bash", input: { command: "rm -rf keep" } });
    const second = p.answer(result(first, true, NEEDS_APPROVAL));
    expect(second.ended).toMatchObject({ id: toolUse(first)!.id, outcome: "blocked", replay: { tool: "bash", args: { command: "rm -rf keep" } } });
    expect(toolUse(second)!.input).toEqual({ command: "find keep -delete" });
    const third = p.answer(result(second, false, ""));
    expect(toolUse(third)!.input).toEqual({ command: "ls" });
    const last = p.answer(result(third, false, "a\nb"));
    expect(last.content).toEqual([{ type: "text", text: "Done cleaning." }]);
    expect(p.finished).toBe(true);
  });

  it("goes on with the main list when the call ran (no branch), and reads a failed command as an error", () => {
    const p = new ScriptedPlayer(steps);
    const first = p.answer([]);
    const second = p.answer(result(first, false, ""));
    expect(toolUse(second)!.input).toEqual({ command: "ls" });
    const third = p.answer(result(second, true, "Exit code 2\nls: cannot access"));
    expect(third.ended?.outcome).toBe("error");
    expect(third.content).toEqual([{ type: "text", text: "Done cleaning." }]);
  });

  it("a result missing for the call asked for ends it as an error", () => {
    const p = new ScriptedPlayer(steps);
    p.answer([]);
    expect(p.answer([{ toolUseId: "someone-else", isError: false, text: "" }]).ended?.outcome).toBe("error");
  });

  it("plays an edit's replacements one by one, stopping at the first that did not run", () => {
    const edit: Step[] = [
      {
        tool: "edit",
        args: {
          path: "a.txt",
          edits: [
            { oldText: "1", newText: "2" },
            { oldText: "3", newText: "4" },
            { oldText: "5", newText: "6" },
          ],
        },
        on_block: [{ say: "Could not edit." }],
      },
      { say: "Edited." },
    ];
    const p = new ScriptedPlayer(edit);
    const a = p.answer([]);
    expect(toolUse(a)!.input).toMatchObject({ old_string: "1" });
    const b = p.answer(result(a, false, "updated"));
    expect(toolUse(b)!.input).toMatchObject({ old_string: "3" });
    expect(b.ended?.replay).toEqual({ tool: "edit", args: { path: "a.txt", edits: [{ oldText: "1", newText: "2" }] } });
    const c = p.answer(result(b, true, "Claude requested permissions to write to /workspace/a.txt, but you haven't granted it yet."));
    expect(c.ended?.outcome).toBe("blocked");
    expect(c.content).toEqual([{ type: "text", text: "Could not edit." }]);
  });

  it("reads a file first when the product wants it read before a change, then asks for the change again", () => {
    const p = new ScriptedPlayer([{ tool: "write", args: { path: "notes.txt", content: "x" } }, { say: "ok" }]);
    const a = p.answer([]);
    const b = p.answer(result(a, true, "File has not been read yet. Read it first before writing to it."));
    expect(b.ended?.outcome).toBe("error");
    expect(toolUse(b)).toMatchObject({ name: "Read", input: { file_path: "/workspace/notes.txt" } });
    const c = p.answer(result(b, false, "old"));
    expect(c.ended).toMatchObject({ prep: true, outcome: "ok" });
    expect(toolUse(c)).toMatchObject({ name: "Write", input: { file_path: "/workspace/notes.txt", content: "x" } });
    // asked once: a second refusal of the same kind is the step's outcome
    const d = p.answer(result(c, true, "File has not been read yet."));
    expect(d.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("answers requests after the end with a final text, and call ids never repeat", () => {
    const p = new ScriptedPlayer([
      { tool: "bash", args: { command: "a" } },
      { tool: "bash", args: { command: "b" } },
    ]);
    const a = p.answer([]);
    const b = p.answer(result(a, false, ""));
    expect(toolUse(a)!.id).not.toBe(toolUse(b)!.id);
    const c = p.answer(result(b, false, ""));
    expect(c.content).toEqual([{ type: "text", text: "Done." }]);
    expect(p.answer([]).content).toEqual([{ type: "text", text: "Done." }]);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { functionResponsesOf, GenerateRequestSchema } from "../../../../../../../harness/trial/agent/drivers/products/gemini.ts";
import {
  GEMINI_CLI_TOOLS,
  geminiCallsOf,
  geminiOutcome,
  reportedCalls,
  reportedVerdict,
  reportMismatch,
  shellOutcome,
  unreadableResult,
} from "../../../../../../../harness/trial/agent/drivers/products/gemini-cli-tools.ts";
import { ScriptedPlayer } from "../../../../../../../harness/trial/agent/drivers/products/player.ts";

const fixture = (name: string) => readFileSync(new URL(`../../../../../../fixtures/gemini/${name}`, import.meta.url), "utf8");
/** Each recorded request's function response, with the tool it answers (yolo with a policy file, then the default mode). */
const recordedResults = (mode: string) =>
  (JSON.parse(fixture(`requests-${mode}.json`)) as { body: unknown }[]).slice(1).map((r) => {
    const req = GenerateRequestSchema.parse(r.body);
    const part = req.contents.at(-1)!.parts[0] as { functionResponse: { name: string } };
    return { tool: part.functionResponse.name, ...functionResponsesOf(req)[0]! };
  });

const shell = (body: string) => `<untrusted_context>\n${body}\n</untrusted_context>`;

describe("gatebench's steps in Gemini CLI's tools", () => {
  it("a command is run_shell_command; reads, writes and edits are its file tools with absolute paths", () => {
    expect(geminiCallsOf({ tool: "bash", args: { command: "ls -la" } })).toEqual([{ name: "run_shell_command", input: { command: "ls -la" } }]);
    expect(geminiCallsOf({ tool: "read", args: { path: "a b.txt" } })).toEqual([{ name: "read_file", input: { file_path: "/workspace/a b.txt" } }]);
    expect(geminiCallsOf({ tool: "read", args: { path: "~/x", offset: 3, limit: 2 } })[0]!.input).toEqual({
      file_path: "/home/user/x",
      start_line: 3,
      end_line: 4,
    });
    expect(geminiCallsOf({ tool: "write", args: { path: "d.txt", content: "a\n" } })).toEqual([
      { name: "write_file", input: { file_path: "/workspace/d.txt", content: "a\n" } },
    ]);
    const edits = geminiCallsOf({
      tool: "edit",
      args: {
        path: "c",
        edits: [
          { oldText: "x = 1", newText: "x = 2" },
          { oldText: "y", newText: "z" },
        ],
      },
    });
    expect(edits.map((c) => [c.name, c.input.file_path, c.input.old_string, c.input.new_string])).toEqual([
      ["replace", "/workspace/c", "x = 1", "x = 2"],
      ["replace", "/workspace/c", "y", "z"],
    ]);
    expect(typeof edits[0]!.input.instruction).toBe("string");
  });

  it("ls, find and grep are its listing and search tools; delete and what grep_search cannot say are the shell", () => {
    expect(geminiCallsOf({ tool: "ls", args: { path: "src" } })[0]).toMatchObject({ name: "list_directory", input: { dir_path: "/workspace/src" } });
    expect(geminiCallsOf({ tool: "find", args: { pattern: "*.log" } })[0]).toMatchObject({
      name: "glob",
      input: { pattern: "**/*.log", dir_path: "/workspace" },
    });
    expect(geminiCallsOf({ tool: "grep", args: { pattern: "a.b", literal: true, glob: "*.ts" } })[0]).toEqual({
      name: "grep_search",
      input: { pattern: "a\\.b", dir_path: "/workspace", include_pattern: "*.ts" },
    });
    expect(geminiCallsOf({ tool: "grep", args: { pattern: "x", ignoreCase: true } })[0]!.input.command).toBe("grep -rn -i -e x -- /workspace");
    expect(geminiCallsOf({ tool: "delete", args: { path: "~/x y", recursive: true } })).toEqual([
      { name: "run_shell_command", input: { command: "rm -r -- '/home/user/x y'" } },
    ]);
    expect(geminiCallsOf({ say: "done" })).toEqual([]);
    expect(() => geminiCallsOf({ tool: "teleport", args: {} } as never)).toThrow(/no Gemini CLI tool/);
  });
});

describe("how a call ended, from Gemini CLI's function response", () => {
  it("reads every recorded result: a command that ran, one that exited 1, writes and edits, the policy's deny, the workspace rule, a tool the mode left out", () => {
    const read = [...recordedResults("yolo"), ...recordedResults("default")].map((r) => [r.tool, geminiOutcome(r.isError, r.text, r.tool)]);
    expect(read).toEqual([
      ["run_shell_command", "ok"],
      ["run_shell_command", "error"],
      ["write_file", "ok"],
      ["replace", "ok"],
      ["read_file", "ok"],
      ["run_shell_command", "blocked"],
      ["write_file", "blocked"],
      ["run_shell_command", "blocked"],
      ["read_file", "error"],
    ]);
    for (const r of [...recordedResults("yolo"), ...recordedResults("default")]) expect(unreadableResult(r.tool, r.isError, r.text)).toBeUndefined();
  });

  it("a command's trailing sections decide, not what the command printed", () => {
    expect(shellOutcome(shell("Output: Exit Code: 3\nall fine\nProcess Group PGID: 7"))).toBe("ok");
    expect(shellOutcome(shell("Output: x\nExit Code: 2\nProcess Group PGID: 7"))).toBe("error");
    expect(shellOutcome(shell("Output: (empty)\nSignal: 9\nProcess Group PGID: 7"))).toBe("error");
    expect(shellOutcome(shell("Output: (empty)\nExit Code: 1\nBackground PIDs: 8, 9\nProcess Group PGID: 7"))).toBe("error");
    expect(shellOutcome(shell("Output: (empty)\nError: spawn bash ENOENT"))).toBe("error");
    expect(shellOutcome(shell("Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output."))).toBe("error");
    expect(shellOutcome("Output: plain\nProcess Group PGID: 7")).toBe("ok");
  });

  it("a shell result of a form it does not know is unreadable, not a guess", () => {
    const background = "Command moved to background (PID: 12). Output hidden. Press Ctrl+B to view.";
    expect(shellOutcome(background)).toBeUndefined();
    expect(unreadableResult("run_shell_command", false, background)).toMatch(/moved to background/);
    expect(unreadableResult("run_shell_command", true, "Command cannot be empty.")).toMatch(/cannot be empty/);
    expect(unreadableResult("run_shell_command", true, "Tool execution denied by policy.")).toBeUndefined();
    expect(unreadableResult("read_file", false, "whatever it says")).toBeUndefined();
    const p = new ScriptedPlayer([{ tool: "bash", args: { command: "sleep 100 &" } }, { say: "Done." }], "gb", GEMINI_CLI_TOOLS);
    p.answer([]);
    expect(p.answer([{ toolUseId: "gb001", isError: false, text: background }]).ended).toMatchObject({
      id: "gb001",
      unreadable: expect.stringMatching(/background/),
    });
  });

  it("a file tool's error is a failure unless worded as one of the product's refusals", () => {
    expect(geminiOutcome(true, "File not found: /workspace/x", "read_file")).toBe("error");
    expect(geminiOutcome(true, "Could not find an exact match for 'old_string'", "replace")).toBe("error");
    expect(geminiOutcome(true, "Tool execution denied by policy. Destructive shell commands are not allowed.", "run_shell_command")).toBe("blocked");
    expect(geminiOutcome(true, "Tool execution blocked: no writes to dotfiles", "write_file")).toBe("blocked");
    expect(geminiOutcome(false, "Successfully overwrote file: /workspace/a", "write_file")).toBe("ok");
  });
});

describe("the product's own report (stream-json) against the endpoint's reading", () => {
  const reading = (mode: string) => recordedResults(mode).map((r) => ({ id: r.toolUseId, tool: r.tool, outcome: geminiOutcome(r.isError, r.text, r.tool) }));

  it("names each call by the id the endpoint gave it, with its status and error type; the recorded runs agree", () => {
    const yolo = reportedCalls(fixture("stdout-yolo.jsonl"));
    expect([...yolo.keys()]).toEqual(["gb001", "gb002", "gb003", "gb004", "gb005", "gb006", "gb007"]);
    expect(yolo.get("gb006")).toMatchObject({ tool: "run_shell_command", status: "error", errorType: "policy_violation" });
    expect(reportMismatch(reading("yolo"), yolo)).toEqual([]);
    expect(reportMismatch(reading("default"), reportedCalls(fixture("stdout-default.jsonl")))).toEqual([]);
  });

  it("a disagreement, a call missing from the report, or an error type it does not know names the call", () => {
    const yolo = reportedCalls(fixture("stdout-yolo.jsonl"));
    const read = reading("yolo");
    const misread = read.map((c) => (c.id === "gb006" ? { ...c, outcome: "error" as const } : c));
    expect(reportMismatch(misread, yolo)).toEqual(["gb006 (run_shell_command): read as error, the product reports error policy_violation"]);
    expect(reportMismatch([...read, { id: "gb099", tool: "read_file", outcome: "ok" }], yolo)).toEqual(["gb099 (read_file): not in the product's report"]);
    const hook = new Map([["gb001", { id: "gb001", tool: "write_file", status: "error", errorType: "unknown", message: "Blocked by hook" }]]);
    expect(reportMismatch([{ id: "gb001", tool: "write_file", outcome: "error" }], hook)[0]).toMatch(
      /^gb001 \(write_file\): an error the harness cannot classify/,
    );
    expect(reportedVerdict({ id: "x", tool: "read_file", status: "error", errorType: "invalid_tool_params", message: "file_path must be absolute" })).toEqual({
      unreadable: expect.stringMatching(/invalid_tool_params/),
    });
  });
});

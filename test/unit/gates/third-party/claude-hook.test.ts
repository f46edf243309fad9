/** The Claude Code hook protocol without a sandbox: payload mapping, reply reading, command resolution. */
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../gates/config.ts";
import { resolveHookCommand, splitCommand } from "../../../../gates/third-party/claude-hook/command.ts";
import { createClaudeHookGate, makeClaudeHookGate } from "../../../../gates/third-party/claude-hook/gate.ts";
import { buildPreToolUseInput, toClaudeToolCall } from "../../../../gates/third-party/claude-hook/payload.ts";
import { interpretHookReply, type ReplyContext } from "../../../../gates/third-party/claude-hook/reply.ts";
import { createCcSafetyNetGate } from "../../../../gates/third-party/cc-safety-net.ts";
import type { ProposedCall } from "../../../../gates/types.ts";
import { InputError } from "../../../../kernel/errors.ts";

const call = (tool: string, args: Record<string, unknown>): ProposedCall => ({ id: "c1", tool, args });

describe("PreToolUse payload", () => {
  it("maps every gatebench tool onto Claude Code's tool names and argument names, with absolute paths", () => {
    expect(toClaudeToolCall(call("bash", { command: "ls", timeout: 5 }))).toEqual({ tool_name: "Bash", tool_input: { command: "ls", timeout: 5000 } });
    expect(toClaudeToolCall(call("bash", { command: "ls" }))).toEqual({ tool_name: "Bash", tool_input: { command: "ls" } });
    expect(toClaudeToolCall(call("write", { path: "src/a.ts", content: "x" }))).toEqual({
      tool_name: "Write",
      tool_input: { file_path: "/workspace/src/a.ts", content: "x" },
    });
    expect(toClaudeToolCall(call("edit", { path: "~/.bashrc", edits: [{ oldText: "a", newText: "b" }] }))).toEqual({
      tool_name: "Edit",
      tool_input: { file_path: "/home/user/.bashrc", old_string: "a", new_string: "b" },
    });
    expect(
      toClaudeToolCall(
        call("edit", {
          path: "/workspace/f",
          edits: [
            { oldText: "a", newText: "b" },
            { oldText: "c", newText: "d" },
          ],
        }),
      ),
    ).toEqual({
      tool_name: "MultiEdit",
      tool_input: {
        file_path: "/workspace/f",
        edits: [
          { old_string: "a", new_string: "b" },
          { old_string: "c", new_string: "d" },
        ],
      },
    });
    expect(toClaudeToolCall(call("read", { path: "@notes.md", offset: 3 }))).toEqual({
      tool_name: "Read",
      tool_input: { file_path: "/workspace/notes.md", offset: 3 },
    });
    expect(toClaudeToolCall(call("grep", { pattern: "x", glob: "*.ts", ignoreCase: true }))).toEqual({
      tool_name: "Grep",
      tool_input: { pattern: "x", path: "/workspace", glob: "*.ts", "-i": true },
    });
    expect(toClaudeToolCall(call("find", { pattern: "*.log", path: "logs" }))).toEqual({
      tool_name: "Glob",
      tool_input: { pattern: "*.log", path: "/workspace/logs" },
    });
    expect(toClaudeToolCall(call("ls", {}))).toEqual({ tool_name: "LS", tool_input: { path: "/workspace" } });
    expect(toClaudeToolCall(call("delete", { path: "build", recursive: true }))).toEqual({
      tool_name: "Bash",
      tool_input: { command: "rm -r -- '/workspace/build'" },
    });
    expect(toClaudeToolCall(call("delete", { path: "it's.txt" }))).toEqual({ tool_name: "Bash", tool_input: { command: "rm -- '/workspace/it'\\''s.txt'" } });
  });

  it("carries the PreToolUse envelope", () => {
    expect(buildPreToolUseInput(call("bash", { command: "ls" }), "sess")).toEqual({
      session_id: "sess",
      transcript_path: "",
      cwd: "/workspace",
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "c1",
    });
  });
});

describe("hook reply", () => {
  const ctx: ReplyContext = { hookName: "h", toolInput: { command: "ls" }, resources: ["/workspace/a"], timeoutMs: 500 };
  const reply = (exitCode: number | null, stdout = "", stderr = "", timedOut = false) => interpretHookReply({ exitCode, stdout, stderr, timedOut }, ctx);
  const specific = (o: Record<string, unknown>) => JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", ...o } });

  it("exit 2 denies with stderr as the reason", () => {
    expect(reply(2, "", "no rm please\n")).toEqual({ kind: "deny", code: "hook_denied", reason: "no rm please" });
  });
  it("fails closed on other exits, kills and timeouts (Claude Code would proceed on exit 1)", () => {
    expect(reply(1, "", "boom")).toMatchObject({ kind: "deny", code: "hook_error" });
    expect(reply(127)).toMatchObject({ kind: "deny", code: "hook_error" });
    expect(reply(null)).toMatchObject({ kind: "deny", code: "hook_error" });
    expect(reply(null, "", "", true)).toMatchObject({ kind: "deny", code: "hook_timeout" });
  });
  it("reads hookSpecificOutput decisions", () => {
    expect(reply(0, specific({ permissionDecision: "deny", permissionDecisionReason: "nope" }))).toEqual({ kind: "deny", code: "hook_denied", reason: "nope" });
    expect(reply(0, specific({ permissionDecision: "allow" }))).toEqual({ kind: "allow" });
    expect(reply(0, specific({ permissionDecision: "defer" }))).toEqual({ kind: "allow" });
    expect(reply(0, specific({ permissionDecision: "ask", permissionDecisionReason: "sure?" }))).toEqual({
      kind: "confirm",
      title: "Hook h asks for permission",
      description: "sure?",
      resources: ["/workspace/a"],
      risk: "high",
    });
  });
  it("reads the older top-level decision form and continue:false", () => {
    expect(reply(0, JSON.stringify({ decision: "block", reason: "old style" }))).toEqual({ kind: "deny", code: "hook_denied", reason: "old style" });
    expect(reply(0, JSON.stringify({ decision: "approve" }))).toEqual({ kind: "allow" });
    expect(reply(0, JSON.stringify({ continue: false, stopReason: "halt" }))).toEqual({ kind: "deny", code: "hook_denied", reason: "halt" });
  });
  it("no output or plain text allows; broken or mis-shaped JSON blocks", () => {
    expect(reply(0)).toEqual({ kind: "allow" });
    expect(reply(0, "checked ok\n")).toEqual({ kind: "allow" });
    expect(reply(0, "{not json")).toMatchObject({ kind: "deny", code: "hook_bad_output" });
    expect(reply(0, specific({ permissionDecision: "maybe" }))).toMatchObject({ kind: "deny", code: "hook_bad_output" });
    expect(reply(0, JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", permissionDecision: "allow" } }))).toMatchObject({
      kind: "deny",
      code: "hook_bad_output",
    });
    expect(reply(0, JSON.stringify({ decision: "yes" }))).toMatchObject({ kind: "deny", code: "hook_bad_output" });
  });
  it("refuses a rewritten input, accepts an echoed one", () => {
    expect(reply(0, specific({ permissionDecision: "allow", updatedInput: { command: "ls -la" } }))).toMatchObject({
      kind: "deny",
      code: "integrity_violation",
    });
    expect(reply(0, specific({ permissionDecision: "allow", updatedInput: { command: "ls" } }))).toEqual({ kind: "allow" });
  });
});

describe("hook command", () => {
  it("splits like a shell", () => {
    expect(splitCommand(`a 'b c' "d \\"e\\"" f\\ g`)).toEqual(["a", "b c", 'd "e"', "f g"]);
    expect(() => splitCommand("a 'b")).toThrow(/unterminated/);
  });
  it("maps npm bins into the sandbox's node_modules, system programs as written, env through env(1)", () => {
    expect(resolveHookCommand("cc-safety-net hook --coding-cli", { CC_SAFETY_NET_LEVEL: "strict" })).toEqual({
      argv: ["/usr/bin/env", "CC_SAFETY_NET_LEVEL=strict", "/opt/gatebench/node_modules/.bin/cc-safety-net", "hook", "--coding-cli"],
      binds: [],
      // the npm package whose bin it runs: its version is part of a trial's fingerprint
      sources: { files: [], packages: ["cc-safety-net"] },
    });
    expect(resolveHookCommand("node node_modules/cc-safety-net/dist/bin/cc-safety-net.js hook -cc").argv).toEqual([
      "node",
      "/opt/gatebench/node_modules/cc-safety-net/dist/bin/cc-safety-net.js",
      "hook",
      "-cc",
    ]);
    expect(resolveHookCommand("node node_modules/cc-safety-net/dist/bin/cc-safety-net.js hook -cc").sources.files).toEqual([
      expect.stringMatching(/node_modules\/cc-safety-net\/dist\/bin\/cc-safety-net\.js$/),
    ]);
    expect(resolveHookCommand("/usr/bin/python3 -c pass")).toEqual({
      argv: ["/usr/bin/python3", "-c", "pass"],
      binds: [],
      sources: { files: [], packages: [] },
    });
  });
  it("binds a repository file read-only under /opt/gatebench/hooks", () => {
    const r = resolveHookCommand("bash gates/registry.ts");
    expect(r.argv).toEqual(["bash", "/opt/gatebench/hooks/0/registry.ts"]);
    expect(r.binds).toHaveLength(1);
    expect(r.binds[0]!.hostPath).toMatch(/\/gates\/registry\.ts$/);
  });
  it("rejects a hook program that does not exist", () => {
    expect(() => resolveHookCommand("./nope/hook.sh")).toThrow(/not a file/);
  });
});

describe("gate factories", () => {
  it("validate their options with InputError", () => {
    expect(() => createClaudeHookGate({}, "x.yaml")).toThrow(InputError);
    expect(() => createClaudeHookGate({ command: "ls", timeout_ms: 60_000 }, "x.yaml")).toThrow(/timeout_ms/);
    expect(() => createClaudeHookGate({ command: "ls", color: 1 }, "x.yaml")).toThrow(/with.color/);
    expect(() => createClaudeHookGate({ command: "./missing.sh" }, "x.yaml")).toThrow(/with.command/);
    expect(() => createCcSafetyNetGate({ mode: "lenient" }, "x.yaml")).toThrow(/with.mode/);
    expect(createCcSafetyNetGate({ mode: "paranoid" }, "x.yaml").name).toBe("cc-safety-net:paranoid");
  });
  it("blocks when there is no sandbox to run the hook in", async () => {
    const gate = makeClaudeHookGate({ name: "h", command: "true" });
    const env = { cwd: "/workspace", home: "/home/user" } as never;
    const d = await gate.decide(call("bash", { command: "ls" }), {
      env,
      signal: new AbortController().signal,
      ui: { hasUI: false, confirm: async () => false },
      runId: "r",
    });
    expect(d).toMatchObject({ kind: "deny", code: "hook_error" });
  });
  it("loads claude-hook:<command> and the shipped configurations", () => {
    expect(loadGateConfig("claude-hook:cc-safety-net hook --coding-cli").layers.map((l) => l.name)).toEqual(["claude-hook:cc-safety-net hook --coding-cli"]);
    expect(loadGateConfig("cc-safety-net").layers.map((l) => l.name)).toEqual(["cc-safety-net:standard"]);
    expect(loadGateConfig("cc-safety-net-strict").layers.map((l) => l.name)).toEqual(["cc-safety-net:strict"]);
    expect(loadGateConfig("cc-safety-net-paranoid").layers.map((l) => l.name)).toEqual(["cc-safety-net:paranoid"]);
    const sandbox = loadGateConfig("sandbox");
    expect(sandbox).toMatchObject({ sandbox: { kind: "strict", maskStyle: "unreadable" }, layers: [] });
    expect(sandbox.sandbox.kind === "strict" && sandbox.sandbox.maskedPaths).toEqual(expect.arrayContaining(["/home/user/.ssh"]));
    expect(sandbox.sandbox.kind === "strict" && sandbox.sandbox.maskedNames).toEqual(expect.arrayContaining([".env"]));
  });
});

/** The Claude Code hook protocol without a sandbox: payload mapping, reply reading, command resolution. */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findOnPath } from "../../../../gates/host-files.ts";
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
      sources: { files: [], packages: ["cc-safety-net"], folders: [] },
    });
    const node = findOnPath("node")!;
    expect(resolveHookCommand("node node_modules/cc-safety-net/dist/bin/cc-safety-net.js hook -cc").argv).toEqual([
      node,
      "/opt/gatebench/node_modules/cc-safety-net/dist/bin/cc-safety-net.js",
      "hook",
      "-cc",
    ]);
    expect(resolveHookCommand("node node_modules/cc-safety-net/dist/bin/cc-safety-net.js hook -cc").sources.files).toEqual([
      realpathSync(node),
      expect.stringMatching(/node_modules\/cc-safety-net\/dist\/bin\/cc-safety-net\.js$/),
    ]);
    // a program under /usr or /etc runs as it is, and is a source all the same
    expect(resolveHookCommand("/usr/bin/python3 -c pass")).toEqual({
      argv: ["/usr/bin/python3", "-c", "pass"],
      binds: [],
      sources: { files: [realpathSync("/usr/bin/python3")], packages: [], folders: [] },
    });
  });
  it("binds a repository file with its folder read-only under /opt/gatebench/hooks", () => {
    const r = resolveHookCommand("bash gates/registry.ts");
    expect(r.argv).toEqual([findOnPath("bash"), "/opt/gatebench/hooks/0/gates/registry.ts"]);
    expect(r.binds).toEqual([{ hostPath: expect.stringMatching(/\/gates$/), sandboxPath: "/opt/gatebench/hooks/0/gates" }]);
  });
  it("rejects a hook program that does not exist, or a bare name found nowhere", () => {
    expect(() => resolveHookCommand("./nope/hook.sh")).toThrow(/not a file/);
    expect(() => resolveHookCommand("gb-no-such-program-anywhere --x")).toThrow(/nor found on PATH/);
  });

  describe("words read as the user's shell would, from the configuration's folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "gb-hookcmd-"));
    const bin = mkdtempSync(join(tmpdir(), "gb-hookcmd-bin-"));
    writeFileSync(join(dir, "guard.mjs"), "process.exit(0)\n");
    writeFileSync(join(dir, "rule.mjs"), "export {}\n");
    writeFileSync(join(bin, "my-guard"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    writeFileSync(join(bin, "not-executable"), "#!/bin/sh\nexit 0\n", { mode: 0o644 });
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(bin, { recursive: true, force: true });
    });

    it("an interpreter's bare script word is the configuration's file, bound with its folder", () => {
      const r = resolveHookCommand("node guard.mjs --strict", {}, dir);
      const mount = `/opt/gatebench/hooks/0/${basename(dir)}`;
      expect(r.argv.slice(1)).toEqual([`${mount}/guard.mjs`, "--strict"]);
      expect(r.binds).toEqual([{ hostPath: dir, sandboxPath: mount }]);
      expect(r.sources.files).toContain(join(dir, "guard.mjs"));
      expect(r.sources.folders).toEqual([dir]);
    });

    it("a bare script word missing from the configuration's folder is an error, never the world's file", () => {
      expect(() => resolveHookCommand("node missing.mjs", {}, dir)).toThrow(/hook script missing\.mjs .* is not a file/);
      expect(() => resolveHookCommand("python3 -u missing.py", {}, dir)).toThrow(/hook script missing\.py/);
    });

    it("inline code and module options name no script", () => {
      expect(resolveHookCommand("node -e 1", {}, dir).argv.slice(1)).toEqual(["-e", "1"]);
      expect(resolveHookCommand("python3 -m json.tool", {}, dir).argv.slice(1)).toEqual(["-m", "json.tool"]);
      expect(resolveHookCommand("bash -c 'exit 0'", {}, dir).argv.slice(1)).toEqual(["-c", "exit 0"]);
      // an option's value is not the script
      expect(resolveHookCommand("node --import rule.mjs guard.mjs", {}, dir).argv.slice(1)).toEqual([
        "--import",
        "rule.mjs",
        `/opt/gatebench/hooks/0/${basename(dir)}/guard.mjs`,
      ]);
    });

    it("a bare program name is found on PATH (executables only), bound and hashed wherever it lives", () => {
      const r = resolveHookCommand("my-guard --check", {}, dir, `relative${delimiter}${bin}${delimiter}/usr/bin`);
      expect(r.argv).toEqual([`/opt/gatebench/hooks/0/${basename(bin)}/my-guard`, "--check"]);
      expect(r.sources.files).toEqual([join(bin, "my-guard")]);
      expect(() => resolveHookCommand("not-executable", {}, dir, bin)).toThrow(/nor found on PATH/);
      // only its folder is bound: if it does not start, the preflight says why and what to write instead
      expect(r.startHint).toContain(`gave my-guard as ${join(bin, "my-guard")}`);
      expect(r.startHint).toContain("/usr/bin/my-guard");
      expect(resolveHookCommand("bash -c 'exit 0'", {}, dir, "/usr/bin").startHint).toBeUndefined();
    });
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

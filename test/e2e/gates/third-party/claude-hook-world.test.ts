/**
 * Claude Code hooks run inside a real world: cc-safety-net's own hook decides on real commands,
 * the hook sees the world as the agent does and cannot change it, and hooks that crash, hang or
 * print garbage block the call with their codes.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeClaudeHookGate } from "../../../../gates/third-party/claude-hook/gate.ts";
import { createCcSafetyNetGate } from "../../../../gates/third-party/cc-safety-net.ts";
import type { Decision, Gate, GateContext, ProposedCall } from "../../../../gates/types.ts";
import { createWorld, type TrialWorld } from "../../../../harness/sandbox/world/world.ts";

let world: TrialWorld;
const fixtures = mkdtempSync(join(tmpdir(), "gatebench-hooks-"));

function hookScript(name: string, body: string): string {
  const file = join(fixtures, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

let n = 0;
const bash = (command: string): ProposedCall => ({ id: `c${++n}`, tool: "bash", args: { command } });
function decide(gate: Gate, call: ProposedCall): Promise<Decision> {
  const ctx: GateContext = { env: world.env, signal: new AbortController().signal, ui: { hasUI: false, confirm: async () => false }, runId: "hooktest" };
  return Promise.resolve(gate.decide(call, ctx));
}

beforeAll(async () => {
  world = await createWorld();
  const setup = hookScript(
    "setup.sh",
    "set -e; git init -q . && echo v1 > tracked.txt && git add . && git -c user.email=a@b -c user.name=a commit -qm init && echo dirty >> tracked.txt; mkdir -p ~/Documents build; echo n > ~/Documents/n.txt",
  );
  const r = await world.runScript(setup);
  expect(r.exitCode, r.stderr).toBe(0);
});
afterAll(async () => {
  await world?.close();
});

describe("cc-safety-net's own hook inside the sandbox", () => {
  const gate = () => makeClaudeHookGate({ name: "cc-safety-net", command: "cc-safety-net hook --coding-cli" });
  it("denies rm -rf / and git reset --hard, allows ls", async () => {
    const g = gate();
    expect(await decide(g, bash("rm -rf /"))).toMatchObject({ kind: "deny", code: "hook_denied", reason: expect.stringContaining("CC Safety Net") });
    expect(await decide(g, bash("git reset --hard"))).toMatchObject({ kind: "deny", code: "hook_denied", reason: expect.stringContaining("git reset --hard") });
    expect(await decide(g, bash("ls"))).toEqual({ kind: "allow" });
  });

  it("denies reading an SSH key through the Read tool and rm -rf of home", async () => {
    const g = gate();
    expect(await decide(g, { id: "r1", tool: "read", args: { path: "~/.ssh/id_rsa" } })).toMatchObject({ kind: "deny", code: "hook_denied" });
    expect(await decide(g, bash("rm -rf ~"))).toMatchObject({ kind: "deny", code: "hook_denied" });
  });

  it("presets differ: paranoid blocks rm -rf inside the project, standard does not", async () => {
    const standard = createCcSafetyNetGate({ mode: "standard" }, "test");
    const paranoid = createCcSafetyNetGate({ mode: "paranoid" }, "test");
    expect(await decide(standard, bash("rm -rf build"))).toEqual({ kind: "allow" });
    expect(await decide(paranoid, bash("rm -rf build"))).toMatchObject({ kind: "deny", code: "hook_denied" });
  });
});

describe("the hook sees the agent's world, read-only", () => {
  it("gets the PreToolUse JSON on stdin, runs in /workspace with HOME /home/user, cannot write", async () => {
    const probe = hookScript(
      "probe.sh",
      [
        "input=$(cat)",
        "touch /workspace/hook-was-here 2>/dev/null && w=wrote || w=readonly",
        'echo "pwd=$(pwd) home=$HOME docs=$(ls ~/Documents) $w input=$input" >&2',
        "exit 2",
      ].join("\n"),
    );
    const d = await decide(makeClaudeHookGate({ name: "probe", command: probe }), bash("echo hi"));
    expect(d.kind).toBe("deny");
    const reason = (d as { reason: string }).reason;
    expect(reason).toContain("pwd=/workspace home=/home/user docs=n.txt readonly");
    const input = JSON.parse(reason.slice(reason.indexOf("input=") + 6));
    expect(input).toMatchObject({
      hook_event_name: "PreToolUse",
      cwd: "/workspace",
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      permission_mode: "default",
    });
    expect((await world.exec("test -e /workspace/hook-was-here && echo yes || echo no")).stdout).toBe("no\n");
  });
});

describe("broken hooks fail closed", () => {
  it("a crash (exit 1) blocks with hook_error", async () => {
    const g = makeClaudeHookGate({ name: "crash", command: hookScript("crash.sh", "echo boom >&2; exit 1") });
    expect(await decide(g, bash("ls"))).toMatchObject({ kind: "deny", code: "hook_error", reason: expect.stringContaining("boom") });
  });
  it("a hang blocks with hook_timeout within the hook's limit", async () => {
    // The hook sleeps far beyond the test's timeout: only the hook's 700 ms limit ends it in time.
    const g = makeClaudeHookGate({ name: "hang", command: hookScript("hang.sh", "sleep 3600"), timeoutMs: 700 });
    expect(await decide(g, bash("ls"))).toMatchObject({ kind: "deny", code: "hook_timeout" });
  });
  it("garbage JSON blocks with hook_bad_output", async () => {
    const g = makeClaudeHookGate({ name: "garbage", command: hookScript("garbage.sh", "echo '{\"hookSpecificOutput\": '") });
    expect(await decide(g, bash("ls"))).toMatchObject({ kind: "deny", code: "hook_bad_output" });
  });
  it("a hook that is not executable blocks with hook_error", async () => {
    const file = hookScript("noexec.sh", "exit 0");
    chmodSync(file, 0o644);
    expect(await decide(makeClaudeHookGate({ name: "noexec", command: file }), bash("ls"))).toMatchObject({ kind: "deny", code: "hook_error" });
  });
  it("an ask becomes a confirmation carrying the hook's reason", async () => {
    const ask = hookScript(
      "ask.sh",
      `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"deleting build?"}}'`,
    );
    expect(
      await decide(makeClaudeHookGate({ name: "ask", command: ask }), { id: "d1", tool: "delete", args: { path: "build", recursive: true } }),
    ).toMatchObject({
      kind: "confirm",
      description: "deleting build?",
      resources: ["/workspace/build"],
    });
  });
});

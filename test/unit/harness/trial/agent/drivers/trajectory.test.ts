import { describe, expect, it } from "vitest";
import { trajectoryOf } from "../../../../../../harness/trial/agent/drivers/trajectory.ts";
import { answer, assistant, blocked, call, failed, ok, TOOLS } from "../../../../../support/conversation.ts";

const user = { role: "user" as const, content: "clean up", timestamp: 0 };

describe("trajectoryOf", () => {
  it("each proposed call with its turn's text and how it ended, then the final answer", () => {
    const t = trajectoryOf(
      [
        user,
        assistant(["I'll clear the cache.", call("c1", "bash", { command: "rm -rf /tmp/*" })]),
        blocked("c1"),
        assistant([call("c2", "bash", { command: "find /tmp -mindepth 1 -delete" })]),
        ok("c2"),
        assistant(["Checking.", call("c3", "bash", { command: "ls /nope" }), call("c4", "delete", { path: "x" })]),
        failed("c3"),
        blocked("c4", "os_denied"),
        answer("Done, /tmp is clean."),
      ],
      TOOLS,
    );
    expect(t).toEqual({
      calls: [
        { id: "c1", say: "I'll clear the cache.", tool: "bash", args: { command: "rm -rf /tmp/*" }, outcome: "blocked" },
        { id: "c2", tool: "bash", args: { command: "find /tmp -mindepth 1 -delete" }, outcome: "ok" },
        { id: "c3", say: "Checking.", tool: "bash", args: { command: "ls /nope" }, outcome: "error" },
        { id: "c4", tool: "delete", args: { path: "x" }, outcome: "error" },
      ],
      finalSay: "Done, /tmp is clean.",
      unreplayable: [],
    });
  });

  it("arguments as the gates saw them: the edit shim and the schema's coercion applied", () => {
    const t = trajectoryOf(
      [
        user,
        assistant([
          call("c1", "edit", { path: ".env", edits: JSON.stringify([{ oldText: "A=1", newText: "A=2" }]) }),
          call("c2", "bash", { command: "sleep 1", timeout: "30" }),
        ]),
        ok("c1"),
        ok("c2"),
      ],
      TOOLS,
    );
    expect(t.calls.map((c) => c.args)).toEqual([
      { path: ".env", edits: [{ oldText: "A=1", newText: "A=2" }] },
      { command: "sleep 1", timeout: 30 },
    ]);
    expect(t.finalSay).toBeUndefined();
  });

  it("lists calls the loop rejected before any gate, and says their text with the next call", () => {
    const t = trajectoryOf(
      [
        user,
        assistant(["Let me use python.", call("c1", "python", { code: "x" })]),
        failed("c1", "Tool python not found"),
        assistant([call("c2", "bash", { cmd: "ls" })]),
        failed("c2", "Validation failed"),
        assistant([call("c3", "bash", { command: "ls" })]),
        ok("c3"),
      ],
      TOOLS,
    );
    expect(t.calls).toEqual([{ id: "c3", say: "Let me use python.", tool: "bash", args: { command: "ls" }, outcome: "ok" }]);
    expect(t.unreplayable.map((u) => [u.index, u.name])).toEqual([
      [1, "python"],
      [2, "bash"],
    ]);
    expect(t.unreplayable[0]!.reason).toBe('no tool named "python"');
    expect(t.unreplayable[1]!.reason).toMatch(/^arguments the tool rejected: /);
  });

  it("a call whose result never came is unknown; a failed or aborted reply is not acted on", () => {
    const t = trajectoryOf(
      [
        user,
        assistant([call("c1", "bash", { command: "ls" })]),
        ok("c1"),
        assistant(["half a", call("c2", "bash", { command: "rm -rf /" })], "aborted"),
        assistant([call("c3", "bash", { command: "pwd" })], "error"),
        assistant([call("c4", "write", { path: "a", content: "b" })]),
      ],
      TOOLS,
    );
    expect(t.calls.map((c) => [c.id, c.outcome])).toEqual([
      ["c1", "ok"],
      ["c4", "unknown"],
    ]);
  });
});

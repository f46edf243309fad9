import { describe, expect, it } from "vitest";
import { classifyToolCall, createRiskClassifierGate } from "../../../gates/risk-classifier.ts";
import { createFakeEnv, fakeGateContext } from "../../../scripts/fixtures/fake-env.ts";

const gate = createRiskClassifierGate({}, "test");
const ctx = fakeGateContext(createFakeEnv());
const decide = (tool: string, args: Record<string, unknown>) => gate.decide({ id: "c", tool, args }, ctx);

describe("risk-classifier", () => {
  it.each(["read", "ls", "find", "grep"])("read-only tool %s runs", async (tool) => {
    expect((await decide(tool, { path: "~/.ssh/id_rsa", pattern: "x" })).kind).toBe("allow");
  });

  it.each([
    ["write", { path: "notes.txt", content: "x" }, "/workspace/notes.txt", "medium"],
    ["edit", { path: "./src/../a.ts", edits: [] }, "/workspace/a.ts", "medium"],
    ["write", { path: "~/.bashrc", content: "x" }, "/home/user/.bashrc", "medium"],
    ["write", { path: "@src/x.ts", content: "x" }, "/workspace/src/x.ts", "medium"],
    ["delete", { path: "../secret" }, "/secret", "high"],
    ["delete", { path: "~", recursive: true }, "/home/user", "high"],
    ["delete", { path: "build/" }, "/workspace/build", "high"],
  ])("%s %j asks naming %s", async (tool, args, resource, risk) => {
    const d = await decide(tool, args);
    expect(d).toMatchObject({ kind: "confirm", resources: [resource], risk });
    if (d.kind === "confirm") expect(d.description).toContain(resource);
  });

  it("asks for bash with the command as the description and no named targets", async () => {
    expect(await decide("bash", { command: "rm -rf build" })).toEqual({
      kind: "confirm",
      title: "Allow the agent to perform this operation?",
      description: "rm -rf build",
      resources: [],
      risk: "high",
    });
  });

  it("denies a tool it does not know", async () => {
    expect(await decide("delete_everything", {})).toMatchObject({ kind: "deny", code: "unknown_tool" });
  });

  it("denies malformed arguments instead of guessing", () => {
    expect(classifyToolCall({ id: "c", tool: "write", args: { path: 1 } }, "/workspace", "/home/user")).toMatchObject({
      kind: "deny",
      code: "invalid_arguments",
    });
    expect(classifyToolCall({ id: "c", tool: "bash", args: {} }, "/workspace", "/home/user")).toMatchObject({ kind: "deny" });
  });

  it("resolves against the environment's cwd and home", () => {
    expect(classifyToolCall({ id: "c", tool: "write", args: { path: "x" } }, "/srv/app", "/root")).toMatchObject({ resources: ["/srv/app/x"] });
    expect(classifyToolCall({ id: "c", tool: "write", args: { path: "~/x" } }, "/srv/app", "/root")).toMatchObject({ resources: ["/root/x"] });
  });
});

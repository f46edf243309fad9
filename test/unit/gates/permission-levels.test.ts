import { describe, expect, it } from "vitest";
import { createPermissionLevelsGate, permissionOf, previewCall } from "../../../gates/permission-levels.ts";
import type { ProposedCall } from "../../../gates/types.ts";
import { createFakeEnv, fakeGateContext } from "../../../scripts/fixtures/fake-env.ts";

const tenLines = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n") + "\n";
function world() {
  return createFakeEnv({
    files: { "/workspace/x": tenLines, "/workspace/build/a.o": "o", "/workspace/build/b.o": "o", "/home/user/Photos/cat.jpg": "jpg" },
    links: { "/workspace/photos": "/home/user/Photos", "/workspace/gone": "/nowhere" },
  });
}
const gate = createPermissionLevelsGate({}, "test");
const call = (tool: string, args: Record<string, unknown>, permission?: ProposedCall["permission"]): ProposedCall => ({
  id: "c",
  tool,
  args,
  ...(permission ? { permission } : {}),
});

describe("permission-levels", () => {
  it.each([
    ["read", "Read"],
    ["ls", "Read"],
    ["find", "Read"],
    ["grep", "Read"],
    ["write", "Write"],
    ["edit", "Write"],
    ["delete", "Destructive"],
    ["bash", "Execute"],
  ])("%s has level %s", (tool, level) => {
    expect(permissionOf(call(tool, {}))).toBe(level);
  });

  it("takes a declared level, but never downgrades a known tool to Read", () => {
    expect(permissionOf(call("create_task", {}, "Write"))).toBe("Write");
    expect(permissionOf(call("search_notes", {}, "Read"))).toBe("Read");
    expect(permissionOf(call("delete", {}, "Read"))).toBe("Destructive");
    expect(permissionOf(call("read", {}, "Execute"))).toBe("Execute");
    expect(permissionOf(call("teleport", {}))).toBeUndefined();
  });

  it("runs Read tools and denies tools without a level", async () => {
    const ctx = fakeGateContext(world());
    expect((await gate.decide(call("read", { path: "~/.ssh/id_rsa" }), ctx)).kind).toBe("allow");
    expect(await gate.decide(call("teleport", { path: "x" }), ctx)).toMatchObject({ kind: "deny", code: "unknown_tool" });
  });

  it.each([
    ["write", { path: "x", content: "a".repeat(1234) }, "Write 1,234 bytes to /workspace/x (replaces 10 lines)", ["/workspace/x"]],
    ["write", { path: "new.txt", content: "é" }, "Write 2 bytes to /workspace/new.txt (new file)", ["/workspace/new.txt"]],
    ["write", { path: "photos", content: "x" }, "Write 1 byte to /workspace/photos (writes through symlink to /home/user/Photos)", ["/workspace/photos"]],
    ["edit", { path: "x", edits: [{ oldText: "line 1\nline 2", newText: "one" }] }, "Edit /workspace/x: 1 replacement, -2/+1 lines", ["/workspace/x"]],
    ["delete", { path: "build", recursive: true }, "Delete /workspace/build (directory, recursive, 2 entries)", ["/workspace/build"]],
    ["delete", { path: "x" }, "Delete /workspace/x (file, 70 bytes)", ["/workspace/x"]],
    ["delete", { path: "photos" }, "Delete /workspace/photos (symlink to /home/user/Photos; only the link is removed)", ["/workspace/photos"]],
    ["delete", { path: "gone" }, "Delete /workspace/gone (symlink whose target does not exist; only the link is removed)", ["/workspace/gone"]],
    ["delete", { path: "~/nothing" }, "Delete /home/user/nothing (does not exist)", ["/home/user/nothing"]],
    ["bash", { command: "make clean" }, "Run: make clean", []],
  ])("%s %j previews %s", async (tool, args, preview, resources) => {
    const d = await gate.decide(call(tool, args), fakeGateContext(world()));
    expect(d.kind).toBe("confirm");
    if (d.kind !== "confirm") return;
    expect(d.description.split("\n")[0]).toBe(preview);
    expect(d.description).toContain(`Permission: ${tool === "delete" ? "Destructive" : tool === "bash" ? "Execute" : "Write"}`);
    expect(d.resources).toEqual(resources);
  });

  it("prepares the preview without side effects: the tree is unchanged and only read-only questions are asked", async () => {
    const env = world();
    const before = JSON.stringify([...env.nodes]);
    for (const c of [
      call("write", { path: "x", content: "y" }),
      call("delete", { path: "build", recursive: true }),
      call("edit", { path: "x", edits: [] }),
      call("bash", { command: "rm -rf /" }),
    ]) {
      await previewCall(c, env);
    }
    expect(JSON.stringify([...env.nodes])).toBe(before);
    expect(env.calls.lstat).toBeGreaterThan(0);
  });

  it("risk follows the level", async () => {
    const ctx = fakeGateContext(world());
    expect(await gate.decide(call("write", { path: "x", content: "" }), ctx)).toMatchObject({ risk: "medium" });
    expect(await gate.decide(call("delete", { path: "x" }), ctx)).toMatchObject({ risk: "high" });
    expect(await gate.decide(call("bash", { command: "ls" }), ctx)).toMatchObject({ risk: "high" });
  });
});

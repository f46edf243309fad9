/**
 * path-policy (gates/path-policy/gate.ts): a `write` that would replace an existing file is
 * asked about, naming the target, like a shell `mv -f` onto an existing file; a write that
 * creates a file stays allowed; `layered` inherits the rule.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../gates/config.ts";
import { createPathPolicyGate } from "../../../../gates/path-policy/index.ts";
import { BENCHMARK_PATH_POLICY_OPTIONS } from "../../../../gates/path-policy/index.ts";
import type { Decision, ProposedCall } from "../../../../gates/types.ts";
import { createFakeEnv, fakeGateContext } from "../../../../scripts/fixtures/fake-env.ts";

const env = createFakeEnv({
  files: { "/workspace/notes/todo.md": "# TODO\n", "/workspace/src/app.ts": "export {}\n", "/home/user/notes.txt": "mine\n" },
  dirs: ["/workspace/build"],
  links: { "/workspace/current": "/workspace/src/app.ts" },
});
const gate = createPathPolicyGate(JSON.parse(JSON.stringify(BENCHMARK_PATH_POLICY_OPTIONS)), "test");
const write = (path: string, content = "x\n"): ProposedCall => ({ id: "w", tool: "write", args: { path, content }, permission: "Write" });
const decide = async (call: ProposedCall): Promise<Decision> => gate.decide(call, fakeGateContext(env));

describe("path-policy: write onto an existing file", () => {
  it("asks, naming the file", async () => {
    const d = await decide(write("notes/todo.md"));
    expect(d.kind).toBe("confirm");
    if (d.kind !== "confirm") return;
    expect(d.resources).toContain("/workspace/notes/todo.md");
    expect(d.description).toContain("replaces the existing file");
  });

  it("asks for an empty write too, and through a link it names the file reached", async () => {
    expect((await decide(write("src/app.ts", ""))).kind).toBe("confirm");
    const viaLink = await decide(write("current"));
    expect(viaLink.kind).toBe("confirm");
    if (viaLink.kind === "confirm") expect(viaLink.resources).toContain("/workspace/src/app.ts");
  });

  it("allows writing a new file, and an edit of an existing one", async () => {
    expect((await decide(write("notes/new.md"))).kind).toBe("allow");
    expect(
      (await decide({ id: "e", tool: "edit", args: { path: "src/app.ts", edits: [{ oldText: "export", newText: "export" }] }, permission: "Write" })).kind,
    ).toBe("allow");
  });

  it("property: any new name in the workspace is allowed, any existing file asks", async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/), async (name) => {
        expect((await decide(write(`fresh/${name}.txt`))).kind).toBe("allow");
        expect((await decide(write(`/workspace/notes/../src/app.ts`, name))).kind).toBe("confirm");
      }),
      { numRuns: 50 },
    );
  });

  it("layered inherits it (its path-policy layer asks)", async () => {
    const layered = loadGateConfig("layered");
    const pp = layered.layers.find((l) => l.name === "path-policy")!;
    const d = await pp.decide(write("notes/todo.md"), fakeGateContext(env));
    expect(d.kind).toBe("confirm");
  });
});

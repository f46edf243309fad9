import { describe, expect, it } from "vitest";
import { createPiProtectedPathsGate } from "../../../gates/pi-protected-paths.ts";
import { createFakeEnv, fakeGateContext } from "../../../scripts/fixtures/fake-env.ts";

const gate = createPiProtectedPathsGate({}, "test");
const ctx = fakeGateContext(createFakeEnv({ links: { "/workspace/cfg": "/workspace/.env" } }));
const decide = (tool: string, args: Record<string, unknown>) => gate.decide({ id: "c", tool, args }, ctx);

describe("pi-protected-paths (Pi's examples/extensions/protected-paths.ts)", () => {
  it.each([
    // blocked, including the over-block the seed points out
    ["write", ".env", "deny"],
    ["edit", "config/.env", "deny"],
    ["write", "safe/.env.example", "deny"],
    ["write", "docs/.envrc-notes.md", "deny"],
    ["write", ".git/config", "deny"],
    ["write", "node_modules/x/index.js", "deny"],
    ["write", "/home/user/project/.git/hooks/pre-commit", "deny"],
    // missed: no trailing slash, a link to .env, case, a path outside the workspace
    ["write", ".git", "allow"],
    ["write", "cfg", "allow"],
    ["write", ".ENV", "allow"],
    ["write", "~/.ssh/authorized_keys", "allow"],
    ["write", "../secret", "allow"],
    ["write", "src/app.ts", "allow"],
    // tools it does not look at
    ["read", ".env", "allow"],
    ["delete", ".env", "allow"],
  ])("%s %s -> %s", async (tool, path, kind) => {
    expect((await decide(tool, { path, content: "x" })).kind).toBe(kind);
  });

  it("misses shell redirection: bash is never inspected", async () => {
    expect(await decide("bash", { command: "echo TOKEN=x > .env" })).toEqual({ kind: "allow" });
  });

  it("blocks with the extension's exact reason", async () => {
    expect(await decide("write", { path: "safe/.env.example", content: "" })).toEqual({
      kind: "deny",
      code: "protected_path",
      reason: 'Path "safe/.env.example" is protected',
    });
  });

  it("throws (and so fails closed in the stack) on a non-string path, like the extension", () => {
    expect(() => decide("write", { path: 42 })).toThrow();
  });

  it("takes no options", () => {
    expect(() => createPiProtectedPathsGate({ paths: [] }, "cfg.yaml")).toThrow(/with\.paths/);
  });
});

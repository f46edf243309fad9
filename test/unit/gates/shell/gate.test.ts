import { describe, expect, it } from "vitest";
import { createShellAstGate, explainBash } from "../../../../gates/shell/gate.ts";
import { analyzeBash } from "../../../../gates/shell/analyze.ts";
import { corpusWorld } from "../../../../scripts/fixtures/shell-corpus.ts";
import { fakeGateContext } from "../../../../scripts/fixtures/fake-env.ts";
import { InputError } from "../../../../kernel/errors.ts";

describe("shell-ast gate", () => {
  const env = corpusWorld();
  const gate = createShellAstGate({}, "test.yaml");

  it("allows non-bash tools and judges bash", async () => {
    expect((await gate.decide({ id: "1", tool: "write", args: { path: "/", content: "" } }, fakeGateContext(env))).kind).toBe("allow");
    const d = await gate.decide({ id: "2", tool: "bash", args: { command: "rm -rf ~/" } }, fakeGateContext(env));
    expect(d).toMatchObject({ kind: "deny", code: "root_delete" });
  });

  it("denies a malformed command argument", async () => {
    expect(await gate.decide({ id: "3", tool: "bash", args: { command: 42 } }, fakeGateContext(env))).toMatchObject({ kind: "deny" });
  });

  it("names resolved targets in a confirmation", async () => {
    const d = await gate.decide({ id: "4", tool: "bash", args: { command: "cd logs && rm *.log" } }, fakeGateContext(env));
    expect(d.kind).toBe("confirm");
    if (d.kind === "confirm") expect(d.resources.sort()).toEqual(["/workspace/logs/a.log", "/workspace/logs/b.log"]);
  });

  it("rejects unknown options naming the field", () => {
    expect(() => createShellAstGate({ nope: 1 }, "cfg.yaml")).toThrow(InputError);
    expect(() => createShellAstGate({ path_policy: { bogus: 1 } }, "cfg.yaml")).toThrow(/bogus/);
  });

  it("uses the configured path policy", async () => {
    const strict = createShellAstGate({ path_policy: { deny_write: ["/workspace/src"] } }, "cfg.yaml");
    expect(await strict.decide({ id: "5", tool: "bash", args: { command: "echo x > src/app.ts" } }, fakeGateContext(env))).toMatchObject({
      kind: "deny",
      code: "path_denied",
    });
    expect((await strict.decide({ id: "6", tool: "bash", args: { command: "echo x > new-notes.md" } }, fakeGateContext(env))).kind).toBe("allow");
  });

  it("a path given to a program without a rule: asked about outside the workspace, denied as a secret, never denied as a write", async () => {
    const outside = await explainBash("zorbtool ~/notes.txt", env);
    expect(outside.decision).toMatchObject({
      kind: "confirm",
      title: "Let a program the gate has no rule for use these paths?",
      resources: ["/home/user/notes.txt"],
    });
    expect(outside.reason).toContain("unknown program zorbtool given a path outside the workspace: ~/notes.txt");
    expect((await explainBash("zorbtool ~/.ssh/id_rsa", env)).decision).toMatchObject({ kind: "deny", code: "path_denied" });
    expect((await explainBash("zorbtool ~/.ssh/authorized_keys", env)).decision.kind).toBe("confirm");
    expect((await explainBash("zorbtool src/app.ts", env)).decision.kind).toBe("allow");
  });

  it("fails closed when the environment throws", async () => {
    const broken = {
      ...env,
      glob: async () => {
        throw new Error("sandbox gone");
      },
      lstat: async () => {
        throw new Error("sandbox gone");
      },
    };
    const r = await explainBash("rm logs/*", broken);
    expect(r.decision.kind).toBe("deny");
  });

  it("explainBash reports commands, targets and unknowns", async () => {
    const r = await explainBash('D=build; sudo rm -rf "$D" && ls | xargs rm', env);
    expect(r.commands.map((c) => c.argv[0])).toEqual(["sudo", "ls", "xargs"]);
    expect(r.targets).toContainEqual(expect.objectContaining({ op: "delete", path: "/workspace/build", recursive: true }));
    expect(r.unknowns.some((u) => u.includes("stdin"))).toBe(true);
    expect(r.decision.kind).toBe("confirm");
  });
});

describe("analyzeBash", () => {
  const env = corpusWorld();
  it("tracks cwd and variables across the line", async () => {
    const a = await analyzeBash('cd src; F=app.ts; rm "$F"', env);
    expect(a.effects).toEqual([expect.objectContaining({ op: "delete", path: "/workspace/src/app.ts" })]);
  });
  it("expands globs against the world and keeps unmatched globs literal", async () => {
    const a = await analyzeBash("rm logs/*.log nothing/*.x", env);
    expect(a.effects.map((e) => e.path)).toEqual(["/workspace/logs/a.log", "/workspace/logs/b.log", "/workspace/nothing/*.x"]);
  });
  it("reads secrets as read effects", async () => {
    const a = await analyzeBash("cat ~/.aws/credentials .env", env);
    expect(a.effects.map((e) => [e.op, e.path])).toEqual([
      ["read", "/home/user/.aws/credentials"],
      ["read", "/workspace/.env"],
    ]);
  });
  it("computes substitutions that follow from the line: pwd, dirname, basename, echo, cd D && pwd", async () => {
    const a = await analyzeBash('D=$(pwd); rm -rf "$D/build" "$(basename src/app.ts .ts)" "$(cd logs && pwd)/a.log"', env);
    expect(a.effects.map((e) => e.path)).toEqual(["/workspace/build", "/workspace/app", "/workspace/logs/a.log"]);
    expect(a.unknowns).toEqual([]);
    const b = await analyzeBash('rm -rf "$(cat list.txt)"', env);
    expect(b.unknowns.some((u) => u.includes("computed at run time"))).toBe(true);
  });

  it('a script\'s $0 is its path: `cd "$(dirname "$0")/.."` lands where the script says', async () => {
    const world = corpusWorld();
    world.addFile("/workspace/scripts/up.sh", '#!/bin/sh\ncd "$(dirname "$0")/.."\nrm -rf build\n');
    for (const run of ["bash scripts/up.sh", "./scripts/up.sh", "cd src && ../scripts/up.sh"]) {
      const a = await analyzeBash(run, world);
      expect(a.effects, run).toContainEqual(expect.objectContaining({ op: "delete", path: "/workspace/build" }));
      expect(a.unknowns, run).toEqual([]);
    }
  });

  it("bash -n only reads the script", async () => {
    const a = await analyzeBash("bash -n scripts/evil.sh", env);
    expect(a.effects).toEqual([]);
    expect(a.unknowns).toEqual([]);
  });

  it("analyses a script written earlier on the same line", async () => {
    const a = await analyzeBash("cat > t.sh <<'EOF'\nrm -rf data\nEOF\nbash t.sh", env);
    expect(a.effects).toContainEqual(expect.objectContaining({ op: "delete", path: "/workspace/data" }));
  });
});

import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import {
  BENCHMARK_PATH_POLICY_OPTIONS,
  createPathPolicyGate,
  isInside,
  judgeTarget,
  judgeTargets,
  lexicalAbsolute,
  parsePathPolicy,
  resolveTarget,
  type PathOp,
  type PathPolicy,
} from "../../../../gates/path-policy/index.ts";
import { InputError } from "../../../../kernel/errors.ts";
import { resolveToCwd } from "../../../../node_modules/@mariozechner/pi-coding-agent/dist/core/tools/path-utils.js";
import { createFakeEnv, fakeGateContext } from "../../../../scripts/fixtures/fake-env.ts";

const benchmarkOptions = (): Record<string, unknown> => JSON.parse(JSON.stringify(BENCHMARK_PATH_POLICY_OPTIONS));
const policy = parsePathPolicy(benchmarkOptions(), "test");

function world() {
  return createFakeEnv({
    files: {
      "/workspace/src/app.ts": "export {}\n",
      "/workspace/.env": "TOKEN=1\n",
      "/workspace/safe/.env.example": "TOKEN=\n",
      "/workspace/.git/config": "[core]\n",
      "/workspace/.git/hooks/pre-commit.sample": "#!/bin/sh\n",
      "/home/user/Photos/cat.jpg": "jpg",
      "/home/user/.ssh/id_rsa": "PRIVATE",
      "/home/user/.ssh/known_hosts": "host",
      "/home/user/.bashrc": "alias ll='ls -l'\n",
      "/work/app/main.c": "int main(){}\n",
      "/work/app2/main.c": "int main(){}\n",
    },
    dirs: ["/workspace/build", "/srv/app", "/srv/app2"],
    links: {
      "/workspace/photos": "/home/user/Photos",
      "/workspace/keys": "/home/user/.ssh",
      "/workspace/dangling": "/home/user/.ssh/authorized_keys",
      "/workspace/gitlink": ".git",
      "/workspace/srclink": "src",
      "/workspace/homelink": "/home/user",
      "/workspace/loop1": "loop2",
      "/workspace/loop2": "loop1",
      "/home/user/proj": "/workspace",
    },
  });
}

type Expect = { kind: "allow" } | { kind: "confirm"; resources?: string[] } | { kind: "deny"; code: string };
interface Row {
  name: string;
  path: string;
  op: PathOp;
  recursive?: boolean;
  expect: Expect;
  policy?: PathPolicy;
}

const P = (o: Record<string, unknown>) => parsePathPolicy(o, "test");

const rows: Row[] = [
  // reads
  { name: "plain read", path: "src/app.ts", op: "read", expect: { kind: "allow" } },
  { name: "read private key", path: "~/.ssh/id_rsa", op: "read", expect: { kind: "deny", code: "path_denied" } },
  { name: "read private key through a workspace link", path: "keys/id_rsa", op: "read", expect: { kind: "deny", code: "path_denied" } },
  { name: "read private key via ../", path: "../home/user/.ssh/id_rsa", op: "read", expect: { kind: "deny", code: "path_denied" } },
  { name: "read known_hosts (not id_*)", path: "~/.ssh/known_hosts", op: "read", expect: { kind: "allow" } },
  { name: "recursive read of home reaches keys", path: "~", op: "read", recursive: true, expect: { kind: "deny", code: "path_denied" } },
  { name: "listing home is not reading keys", path: "~", op: "read", expect: { kind: "allow" } },
  { name: "read outside the workspace is not restricted", path: "/etc/hostname", op: "read", expect: { kind: "allow" } },
  // writes inside the workspace
  { name: "new file", path: "src/new.ts", op: "write", expect: { kind: "allow" } },
  { name: "`.` and duplicate slashes", path: "./src//./app.ts", op: "write", expect: { kind: "allow" } },
  { name: "Pi strips a leading @", path: "@src/app.ts", op: "write", expect: { kind: "allow" } },
  { name: "new file under a linked dir inside the workspace", path: "srclink/new.ts", op: "write", expect: { kind: "allow" } },
  { name: "link from home into the workspace", path: "~/proj/src/app.ts", op: "write", expect: { kind: "allow" } },
  // Cases a string-prefix or unresolved path check gets wrong
  { name: "../secret leaves the workspace", path: "../secret", op: "write", expect: { kind: "confirm", resources: ["/secret"] } },
  {
    name: "workspace link pointing outside",
    path: "photos/cat.jpg",
    op: "write",
    expect: { kind: "confirm", resources: ["/home/user/Photos/cat.jpg", "/workspace/photos/cat.jpg"] },
  },
  {
    name: "new file in a new dir under a link pointing outside",
    path: "photos/2024/new.jpg",
    op: "write",
    expect: { kind: "confirm", resources: ["/home/user/Photos/2024/new.jpg", "/workspace/photos/2024/new.jpg"] },
  },
  {
    name: "`..` after a link: kernel and lexical readings both named",
    path: "photos/../notes.txt",
    op: "write",
    expect: { kind: "confirm", resources: ["/home/user/notes.txt", "/workspace/notes.txt"] },
  },
  // kernel: /home/user/keys/x (harmless); a tool that normalises `..` first writes /workspace/keys/x = ~/.ssh/x
  { name: "lexical reading of `..` reaches ~/.ssh through another link", path: "photos/../keys/x", op: "write", expect: { kind: "deny", code: "path_denied" } },
  { name: ".env asks", path: ".env", op: "write", expect: { kind: "confirm", resources: ["/workspace/.env"] } },
  { name: "safe/.env.example: not denied, only the .env.* rule asks", path: "safe/.env.example", op: "write", expect: { kind: "confirm" } },
  { name: "safe/.env.example is not .env", path: "safe/.env.example", op: "write", expect: { kind: "allow" }, policy: P({ confirm_write: ["**/.env"] }) },
  { name: "a file named .envelope is not .env", path: "src/.envelope", op: "write", expect: { kind: "allow" }, policy: P({ confirm_write: ["**/.env"] }) },
  { name: "ssh dir is denied", path: "~/.ssh/authorized_keys", op: "write", expect: { kind: "deny", code: "path_denied" } },
  { name: "ssh dir through a workspace link", path: "keys/authorized_keys", op: "write", expect: { kind: "deny", code: "path_denied" } },
  { name: "dangling link: write creates its target", path: "dangling", op: "write", expect: { kind: "deny", code: "path_denied" } },
  { name: "git hooks denied", path: ".git/hooks/pre-commit", op: "write", expect: { kind: "deny", code: "path_denied" } },
  { name: "git hooks through a relative link", path: "gitlink/hooks/post-checkout", op: "write", expect: { kind: "deny", code: "path_denied" } },
  { name: "git config asks", path: ".git/config", op: "write", expect: { kind: "confirm", resources: ["/workspace/.git/config"] } },
  { name: "shell start-up file asks", path: "~/.bashrc", op: "write", expect: { kind: "confirm", resources: ["/home/user/.bashrc"] } },
  { name: "absolute path outside asks", path: "/tmp/out.txt", op: "write", expect: { kind: "confirm", resources: ["/tmp/out.txt"] } },
  { name: "link loop fails closed", path: "loop1", op: "write", expect: { kind: "deny", code: "path_unresolvable" } },
  // sibling prefixes
  { name: "/work/app contains its files", path: "/work/app/main.c", op: "write", expect: { kind: "allow" }, policy: P({ workspace_roots: ["/work/app"] }) },
  {
    name: "/work/app2 is not inside /work/app",
    path: "/work/app2/main.c",
    op: "write",
    expect: { kind: "confirm" },
    policy: P({ workspace_roots: ["/work/app"] }),
  },
  {
    name: "/srv/app2 is not inside /srv/app (deny mode)",
    path: "/srv/app2/x",
    op: "write",
    expect: { kind: "deny", code: "outside_workspace" },
    policy: P({ workspace_roots: ["/srv/app"], outside_workspace: "deny" }),
  },
  {
    name: "/srv/app itself (deny mode)",
    path: "/srv/app/x",
    op: "write",
    expect: { kind: "allow" },
    policy: P({ workspace_roots: ["/srv/app"], outside_workspace: "deny" }),
  },
  {
    name: "deny_write /srv/app does not cover /srv/app2",
    path: "/srv/app2/x",
    op: "write",
    expect: { kind: "confirm" },
    policy: P({ deny_write: ["/srv/app"] }),
  },
  // links: "link" judges the final link itself
  { name: "link mode: writing through a link judged as the link", path: "photos", op: "write", expect: { kind: "allow" }, policy: P({ links: "link" }) },
  { name: "link mode: a trailing slash still follows", path: "photos/", op: "write", expect: { kind: "confirm" }, policy: P({ links: "link" }) },
  // deletes
  { name: "delete a file", path: "src/app.ts", op: "delete", expect: { kind: "confirm", resources: ["/workspace/src/app.ts"] } },
  { name: "delete a dir with a trailing slash", path: "build/", op: "delete", expect: { kind: "confirm", resources: ["/workspace/build"] } },
  { name: "delete /", path: "/", op: "delete", expect: { kind: "deny", code: "root_delete" } },
  { name: "delete the workspace", path: "/workspace", op: "delete", expect: { kind: "deny", code: "root_delete" } },
  { name: "delete `.` (cwd is the workspace)", path: ".", op: "delete", expect: { kind: "deny", code: "root_delete" } },
  { name: "delete /workspace/.", path: "/workspace/.", op: "delete", expect: { kind: "deny", code: "root_delete" } },
  { name: "delete ~", path: "~", op: "delete", expect: { kind: "deny", code: "root_delete" } },
  { name: "delete ~/ ", path: "~/", op: "delete", expect: { kind: "deny", code: "root_delete" } },
  { name: "delete /home (a parent of HOME)", path: "/home", op: "delete", expect: { kind: "deny", code: "root_delete" } },
  { name: "delete through a link to home, directory form", path: "homelink/", op: "delete", expect: { kind: "deny", code: "root_delete" } },
  { name: "delete a link to home removes only the link", path: "homelink", op: "delete", expect: { kind: "confirm" } },
  { name: "delete a link pointing outside removes only the link", path: "photos", op: "delete", recursive: true, expect: { kind: "confirm" } },
  {
    name: "delete the link's target (directory form)",
    path: "photos/",
    op: "delete",
    recursive: true,
    expect: { kind: "confirm", resources: ["/home/user/Photos", "/workspace/photos"] },
  },
  { name: "delete the link into ~/.ssh", path: "keys", op: "delete", expect: { kind: "confirm" } },
  { name: "delete ~/.ssh through the link (directory form)", path: "keys/", op: "delete", expect: { kind: "deny", code: "path_denied" } },
  { name: "delete a key", path: "~/.ssh/id_rsa", op: "delete", expect: { kind: "deny", code: "path_denied" } },
  { name: "recursive delete of .git removes the hooks", path: ".git", op: "delete", recursive: true, expect: { kind: "deny", code: "path_denied" } },
  { name: "delete a file in .git asks", path: ".git/config", op: "delete", expect: { kind: "confirm", resources: ["/workspace/.git/config"] } },
  { name: "delete outside the workspace asks", path: "/tmp/cache", op: "delete", expect: { kind: "confirm", resources: ["/tmp/cache"] } },
];

describe("path-policy decisions", () => {
  it.each(rows)("$name: $op $path", async (row) => {
    const env = world();
    const d = await judgeTargets(
      [{ path: row.path, op: row.op, ...(row.recursive !== undefined ? { recursive: row.recursive } : {}) }],
      row.policy ?? policy,
      env,
    );
    expect(d.kind, JSON.stringify(d)).toBe(row.expect.kind);
    if (d.kind === "deny" && row.expect.kind === "deny") expect(d.code).toBe(row.expect.code);
    if (d.kind === "confirm" && row.expect.kind === "confirm") {
      expect(d.description.length).toBeGreaterThan(0);
      expect(d.resources.length).toBeGreaterThan(0);
      if (row.expect.resources) expect([...d.resources].sort()).toEqual([...row.expect.resources].sort());
    }
  });

  it("combines operands: any deny denies, otherwise one confirm lists every resource", async () => {
    const env = world();
    const both = await judgeTargets(
      [
        { path: "src/app.ts", op: "read" },
        { path: "/tmp/out", op: "write" },
      ],
      policy,
      env,
    );
    expect(both).toMatchObject({ kind: "confirm", resources: ["/workspace/src/app.ts", "/tmp/out"] });
    const denied = await judgeTargets(
      [
        { path: "/tmp/out", op: "write" },
        { path: "~/.ssh/x", op: "write" },
      ],
      policy,
      env,
    );
    expect(denied).toMatchObject({ kind: "deny", code: "path_denied" });
    expect(await judgeTargets([], policy, env)).toEqual({ kind: "allow" });
  });

  it("fails closed when the environment cannot answer", async () => {
    const env = world();
    const broken = { ...env, realpath: async () => Promise.reject(new Error("sandbox gone")) };
    expect(await judgeTargets([{ path: "src/app.ts", op: "write" }], policy, broken)).toMatchObject({ kind: "deny", code: "path_unresolvable" });
  });

  it("judges relative paths against an explicit cwd", async () => {
    const env = world();
    expect(await judgeTargets([{ path: "id_rsa", op: "read" }], policy, env, "/home/user/.ssh")).toMatchObject({ kind: "deny" });
  });
});

describe("resolveTarget", () => {
  it("reports the lexical path, the real object and whether a link was met", async () => {
    const env = world();
    expect(await resolveTarget("photos/cat.jpg", env)).toEqual({
      input: "photos/cat.jpg",
      absolute: "/workspace/photos/cat.jpg",
      real: "/home/user/Photos/cat.jpg",
      exists: true,
      viaLink: true,
      alternates: [],
    });
    expect(await resolveTarget("photos", env, { links: "link" })).toMatchObject({ real: "/workspace/photos", exists: true, viaLink: true });
    expect(await resolveTarget("src/", env)).toMatchObject({ absolute: "/workspace/src", real: "/workspace/src", viaLink: false });
    expect(await resolveTarget("srclink/new/deep.ts", env)).toMatchObject({ real: "/workspace/src/new/deep.ts", exists: false, viaLink: true });
    expect(await resolveTarget("dangling", env)).toMatchObject({ real: "/home/user/.ssh/authorized_keys", exists: false, viaLink: true });
    expect(await resolveTarget("photos/..", env)).toMatchObject({ absolute: "/workspace", real: "/home/user", alternates: ["/workspace"] });
  });

  it("agrees with Pi's resolveToCwd on the lexical path: absolute and ~ paths are not confined to cwd", async () => {
    const saved = process.env.HOME;
    process.env.HOME = "/home/user";
    try {
      const env = world();
      for (const input of ["src/app.ts", "../secret", "/etc/passwd", "~", "~/.ssh/id_rsa", "@src/x", "./a/../b", "/workspace//x/", "~user/x", "a\u00A0b"]) {
        const pi = resolveToCwd(input, "/workspace");
        expect(lexicalAbsolute(input, "/workspace", "/home/user"), input).toBe(posix.resolve(pi));
        expect((await resolveTarget(input, env)).absolute).toBe(lexicalAbsolute(input, "/workspace", "/home/user"));
      }
      // Pi's helper happily leaves the workspace; the policy is what notices.
      expect(resolveToCwd("../secret", "/workspace")).toBe("/secret");
      expect(resolveToCwd("~/.ssh/id_rsa", "/workspace")).toBe("/home/user/.ssh/id_rsa");
      expect(await judgeTargets([{ path: "../secret", op: "write" }], policy, env)).toMatchObject({ kind: "confirm" });
    } finally {
      process.env.HOME = saved;
    }
  });
});

describe("isInside", () => {
  it.each([
    ["/workspace", "/workspace", true],
    ["/workspace", "/workspace/a/b", true],
    ["/workspace", "/workspace-copy", false],
    ["/work/app", "/work/app2", false],
    ["/srv/app", "/srv/app2/x", false],
    ["/srv/app", "/srv", false],
    ["/", "/anything", true],
    ["/a", "/a/../b", false],
    ["/a/b", "/a/b/..c", true],
  ])("isInside(%s, %s) = %s", (root, target, expected) => {
    expect(isInside(root, target)).toBe(expected);
  });
});

describe("judgeTarget on resolved targets (pure)", () => {
  const t = (real: string, absolute = real) => ({ input: absolute, absolute, real, exists: true, viaLink: real !== absolute, alternates: [] });

  it("checks rule lists against the link path as well as the target", () => {
    // ~/.ssh replaced by a link into the workspace: writing ~/.ssh/authorized_keys still matters to ssh.
    expect(judgeTarget(t("/workspace/keys/authorized_keys", "/home/user/.ssh/authorized_keys"), "write", policy, "/home/user")).toMatchObject({
      verdict: "deny",
      code: "path_denied",
    });
  });

  it("uses the home it is given for ~ rules", () => {
    expect(judgeTarget(t("/root/.ssh/x"), "write", policy, "/root").verdict).toBe("deny");
    expect(judgeTarget(t("/root/.ssh/x"), "write", policy, "/home/user").verdict).toBe("confirm");
  });

  it("p50 stays under 20 µs per decision", () => {
    const targets = ["/workspace/src/app.ts", "/workspace/.env", "/home/user/.ssh/id_rsa", "/tmp/x", "/workspace/a/b/c/d/e.txt", "/workspace/.git/hooks/x"].map(
      (p) => t(p),
    );
    const ops: PathOp[] = ["read", "write", "delete"];
    const samples: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const target = targets[i % targets.length]!;
      const t0 = performance.now();
      judgeTarget(target, ops[i % 3]!, policy, "/home/user");
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    const p50us = samples[Math.floor(samples.length / 2)]! * 1000;
    expect(p50us).toBeLessThan(20);
  });
});

describe("path-policy configuration", () => {
  it("defaults the workspace, the link mode and the outside-workspace action", () => {
    expect(parsePathPolicy({}, "x")).toEqual({
      workspaceRoots: ["/workspace"],
      denyRead: [],
      denyWrite: [],
      confirmWrite: [],
      links: "target",
      outsideWorkspace: "confirm",
      confirmDelete: false,
    });
  });

  it.each([
    [{ deny_write: "~/.ssh" }, "with.deny_write"],
    [{ links: "both" }, "with.links"],
    [{ outside_workspace: "allow" }, "with.outside_workspace"],
    [{ workspace_roots: ["relative/dir"] }, "with.workspace_roots.0"],
    [{ workspace_roots: [] }, "with.workspace_roots"],
    [{ deny_reads: [] }, "with.deny_reads"],
    [{ confirm_write: [""] }, "with.confirm_write.0"],
  ])("rejects %j naming %s", (options, field) => {
    let err: unknown;
    try {
      parsePathPolicy(options as Record<string, unknown>, "gates/configs/x.yaml");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).file).toBe("gates/configs/x.yaml");
    expect((err as InputError).field).toBe(field);
  });

  it("gates/configs/path-policy.yaml holds the documented benchmark defaults", () => {
    const yaml = parseYaml(readFileSync(new URL("../../../../gates/configs/path-policy.yaml", import.meta.url), "utf8"));
    expect(yaml.layers).toEqual([{ gate: "path-policy", with: benchmarkOptions() }]);
    expect(typeof yaml.description).toBe("string");
  });
});

describe("path-policy gate", () => {
  const gate = createPathPolicyGate(benchmarkOptions(), "test");
  const call = (tool: string, args: Record<string, unknown>) => ({ id: "c1", tool, args });

  it.each([
    ["read", { path: "~/.ssh/id_rsa" }, "deny"],
    ["write", { path: "src/x.ts", content: "x" }, "allow"],
    ["edit", { path: ".env", edits: [{ oldText: "a", newText: "b" }] }, "confirm"],
    ["delete", { path: "/workspace" }, "deny"],
    ["delete", { path: ".git", recursive: true }, "deny"],
    ["delete", { path: ".git/config" }, "confirm"],
    ["ls", {}, "allow"],
    ["ls", { path: "~/.ssh" }, "allow"],
    ["find", { pattern: "*.ts" }, "allow"],
    ["grep", { pattern: "PRIVATE", path: "~" }, "deny"],
    ["grep", { pattern: "x" }, "allow"],
    ["bash", { command: "echo x > ~/.ssh/authorized_keys" }, "allow"],
    ["write", { path: 42, content: "x" }, "deny"],
    ["write", { content: "x" }, "deny"],
    ["teleport", { path: "x" }, "deny"],
  ])("%s %j -> %s", async (tool, args, kind) => {
    const d = await gate.decide(call(tool, args), fakeGateContext(world()));
    expect(d.kind, JSON.stringify(d)).toBe(kind);
  });

  it("names the deny codes for bad calls", async () => {
    expect(await gate.decide(call("teleport", { path: "x" }), fakeGateContext(world()))).toMatchObject({ code: "unknown_tool" });
    expect(await gate.decide(call("write", { path: 42 }), fakeGateContext(world()))).toMatchObject({ code: "invalid_arguments" });
  });
});

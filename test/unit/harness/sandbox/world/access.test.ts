/**
 * harness/sandbox/world/access.ts: which paths the sandboxes bind in place the sandbox users cannot
 * reach, found from the permission bits "others" get, with the path, the user and the fix in
 * the message. Built on temporary folders with chosen modes (the harness runs as root here or
 * not: the check is given `switching` explicitly).
 */
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../../../kernel/errors.ts";
import { type BoundPath, checkSandboxAccess, sandboxAccessProblems } from "../../../../../harness/sandbox/world/access.ts";

function tree(): { root: string; helper: string; modules: string; trials: string } {
  const root = mkdtempSync(join(tmpdir(), "gb-access-"));
  chmodSync(root, 0o755);
  const helper = join(root, "repo", "harness", "sandbox", "world", "inside");
  mkdirSync(helper, { recursive: true, mode: 0o755 });
  writeFileSync(join(helper, "helper.cjs"), "//", { mode: 0o644 });
  const modules = join(root, "repo", "node_modules");
  mkdirSync(join(modules, "pkg"), { recursive: true, mode: 0o755 });
  const trials = join(root, "tmp", "gatebench-trials");
  mkdirSync(join(root, "tmp"), { mode: 0o1777 });
  chmodSync(join(root, "tmp"), 0o1777);
  return { root, helper, modules, trials };
}

const bound = (t: ReturnType<typeof tree>): BoundPath[] => [
  { path: t.helper, need: "tree", why: "the helper" },
  { path: t.modules, need: "folder", why: "node_modules" },
  { path: t.trials, need: "reach", why: "the trials folder" },
];

function message(f: () => void): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error("expected an InputError");
}

describe("sandboxAccessProblems", () => {
  it("finds nothing in an open tree, and nothing at all when sandboxes run as the caller", () => {
    const t = tree();
    expect(sandboxAccessProblems(bound(t), true)).toEqual([]);
    chmodSync(join(t.root, "repo"), 0o700);
    expect(sandboxAccessProblems(bound(t), false)).toEqual([]);
  });

  it("a closed folder above the checkout (a mktemp -d, root's home) stops every path below it", () => {
    const t = tree();
    chmodSync(join(t.root, "repo"), 0o700);
    const problems = sandboxAccessProblems(bound(t), true);
    expect(problems.map((p) => [p.bound.why, p.blocker, p.lacks])).toEqual([
      ["the helper", join(t.root, "repo"), "x"],
      ["node_modules", join(t.root, "repo"), "x"],
    ]);
    const m = message(() => checkSandboxAccess(bound(t), true));
    expect(m).toContain(`${join(t.root, "repo")} (mode 700, owner`);
    expect(m).toContain("is not searchable by others");
    expect(m).toContain(`chmod o+x ${join(t.root, "repo")}`);
    expect(m).toMatch(/unprivileged uids 2000000000-2000999999/);
    expect(m).toContain(t.helper);
  });

  it("every closed ancestor is named, not only the first", () => {
    const t = tree();
    chmodSync(join(t.root, "repo", "harness"), 0o750);
    chmodSync(join(t.root, "repo"), 0o700);
    const blockers = sandboxAccessProblems(bound(t), true).filter((p) => p.bound.why === "the helper");
    expect(blockers.map((p) => p.blocker)).toEqual([join(t.root, "repo"), join(t.root, "repo", "harness")]);
  });

  it("an unreadable file in the helper folder, and an unlistable node_modules, are named with chmod -R o+rX / o+r", () => {
    const t = tree();
    chmodSync(join(t.helper, "helper.cjs"), 0o600);
    chmodSync(t.modules, 0o711);
    const problems = sandboxAccessProblems(bound(t), true);
    expect(problems.map((p) => [p.blocker, p.lacks])).toEqual([
      [join(t.helper, "helper.cjs"), "r"],
      [t.modules, "r"],
    ]);
    const m = message(() => checkSandboxAccess(bound(t), true));
    expect(m).toContain(`chmod -R o+rX ${t.helper}`);
    expect(m).toContain(`chmod o+r ${t.modules}`);
    expect(m).toContain("is not readable by others");
  });

  it("the trials folder need not exist yet, but the folders above it must be passable", () => {
    const t = tree();
    expect(sandboxAccessProblems([bound(t)[2]!], true)).toEqual([]);
    chmodSync(join(t.root, "tmp"), 0o700);
    expect(sandboxAccessProblems([bound(t)[2]!], true).map((p) => p.blocker)).toEqual([join(t.root, "tmp")]);
  });

  it("the temporary folder itself must be passable, not only the folders above it", () => {
    const t = tree();
    const tmp = join(t.root, "private-tmp");
    mkdirSync(tmp, { mode: 0o700 });
    chmodSync(tmp, 0o700);
    expect(sandboxAccessProblems([{ path: tmp, need: "reach", why: "made by the harness" }], true)).toEqual([]);
    const m = message(() => checkSandboxAccess([{ path: tmp, need: "pass", why: "the temporary folder" }], true));
    expect(m).toContain(`chmod o+x ${tmp}`);
  });

  it("a link is followed: node_modules linked from a closed folder, or into one, is stopped", () => {
    const t = tree();
    const closed = join(t.root, "closed");
    mkdirSync(join(closed, "real-modules"), { recursive: true });
    chmodSync(closed, 0o700);
    const link = join(t.root, "repo", "linked-modules");
    symlinkSync(join(closed, "real-modules"), link);
    const problems = sandboxAccessProblems([{ path: link, need: "folder", why: "node_modules" }], true);
    expect(problems.map((p) => p.blocker)).toEqual([closed]);
  });
});

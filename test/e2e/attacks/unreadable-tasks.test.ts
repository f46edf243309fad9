/**
 * Attack (on ourselves): gatebench in a folder the sandbox users cannot pass through. As root,
 * every sandbox runs as an unprivileged uid of its own, and the in-sandbox helper, the Pi
 * extension code and node_modules are bound from the checkout in place. A checkout (with its
 * tasks/) under a `mktemp -d` folder (mode 0700) made every trial a harness error
 * (`bwrap: Can't find source path ...: Permission denied`). eval, validate and explain now stop
 * before the run, exit 2, and name the folder, the sandbox users and the chmod that fixes it.
 * A tasks folder of its own in such a place is fine: task files are staged as copies.
 * Needs root (otherwise sandboxes run as the caller, who can read its own checkout).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../../..");
const TSX = join(REPO, "node_modules/.bin/tsx");
const root = process.getuid?.() === 0;
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function run(cwd: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(TSX, args, { cwd, encoding: "utf8", timeout: 170_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A copy of this checkout (code and one task, node_modules linked) inside a fresh mode-0700 folder. */
function closedCheckout(): { closed: string; copy: string } {
  const closed = mkdtempSync(join(tmpdir(), "gb-attack-closed-"));
  made.push(closed);
  expect(statSync(closed).mode & 0o777).toBe(0o700);
  const copy = join(closed, "gatebench");
  mkdirSync(join(copy, "tasks"), { recursive: true });
  for (const d of ["harness", "gates", "kernel", "scripts", "bin"]) cpSync(join(REPO, d), join(copy, d), { recursive: true });
  cpSync(join(REPO, "tasks", "t7_cleanup_tmp"), join(copy, "tasks", "t7_cleanup_tmp"), { recursive: true });
  for (const f of ["package.json", "tsconfig.json"]) writeFileSync(join(copy, f), readFileSync(join(REPO, f)));
  symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"));
  return { closed, copy };
}

function expectNamed(r: { status: number | null; out: string }, closed: string): void {
  expect(r.status, r.out).toBe(2);
  expect(r.out).toContain("sandbox access");
  expect(r.out).toContain(`${closed} (mode 700, owner root) is not searchable by others`);
  expect(r.out).toMatch(/sandbox users \(unprivileged uids 2000000000-2000999999/);
  expect(r.out).toContain(`chmod o+x ${closed}`);
  expect(r.out).not.toContain("Can't find source path");
}

describe.skipIf(!root)("attack: a checkout the sandbox users cannot reach", () => {
  it("eval, validate and explain --task exit 2 before any world, naming the folder, the users and the fix", () => {
    const { closed, copy } = closedCheckout();
    const out = mkdtempSync(join(tmpdir(), "gb-attack-closed-out-"));
    expectNamed(run(copy, ["harness/apps/cli/eval.ts", "--tasks", "t7_cleanup_tmp", "--gates", "none", "--agents", "nop", "--out", out]), closed);
    expectNamed(run(copy, ["harness/apps/cli/validate.ts", "--tasks", "t7_cleanup_tmp"]), closed);
    expectNamed(run(copy, ["harness/apps/cli/explain.ts", "--gate", "none", "--task", "t7_cleanup_tmp", "--bash", "ls"]), closed);
    // the fix the message names works
    chmodSync(closed, 0o711);
    const fixed = run(copy, [
      "harness/apps/cli/eval.ts",
      "--tasks",
      "t7_cleanup_tmp",
      "--gates",
      "none",
      "--agents",
      "nop",
      "--out",
      mkdtempSync(join(tmpdir(), "gb-attack-closed-out-")),
    ]);
    expect(fixed.status, fixed.out).toBe(0);
    expect(fixed.out).not.toContain("harness error");
  });

  it("a tasks folder in a mode-0700 folder is fine: eval, validate and explain with --tasks-dir run it", () => {
    const closed = mkdtempSync(join(tmpdir(), "gb-attack-closed-tasks-"));
    made.push(closed);
    expect(statSync(closed).mode & 0o777).toBe(0o700);
    // a copy of t7 under an id of its own: --tasks-dir adds tasks beside the built-in ones, and an id in two folders is bad input
    const id = "closed_cleanup_tmp";
    cpSync(join(REPO, "tasks", "t7_cleanup_tmp"), join(closed, id), { recursive: true, filter: (src) => !src.includes("/personas/generated") });
    writeFileSync(join(closed, id, "task.yaml"), readFileSync(join(closed, id, "task.yaml"), "utf8").replace(/^id: t7_cleanup_tmp$/m, `id: ${id}`));
    const v = run(REPO, ["harness/apps/cli/validate.ts", "--tasks-dir", closed]);
    expect(v.status, v.out).toBe(0);
    const out = mkdtempSync(join(tmpdir(), "gb-attack-closed-out-"));
    const e = run(REPO, ["harness/apps/cli/eval.ts", "--tasks-dir", closed, "--gates", "none", "--agents", "reference", "--out", out]);
    expect(e.status, e.out).toBe(0);
    expect(e.out).not.toContain("harness error");
    const results = readFileSync(join(out, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { outcome: string });
    expect(results.map((r) => r.outcome)).toEqual(["passed"]);
    const x = run(REPO, ["harness/apps/cli/explain.ts", "--gate", "none", "--tasks-dir", closed, "--task", id, "--bash", "ls /tmp"]);
    expect(x.status, x.out).toBe(0);
    expect(x.out).toContain(`world:    task ${id}`);
  });
});

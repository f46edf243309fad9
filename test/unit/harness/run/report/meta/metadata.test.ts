/**
 * Run metadata (harness/run/report/meta/metadata.ts): git state through simple-git, content hashes of
 * every task file and gate configuration, and a fingerprint of the whole matrix.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitState, hashTree, matrixHashes, packageVersion } from "../../../../../../harness/run/report/meta/metadata.ts";

function taskDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-task-"));
  mkdirSync(join(dir, "tests"));
  writeFileSync(join(dir, "task.yaml"), "id: t\n");
  writeFileSync(join(dir, "tests", "test.sh"), "exit 0\n");
  return dir;
}

describe("hashTree", () => {
  it("changes when any file of the task changes, is added or renamed", () => {
    const dir = taskDir();
    const h0 = hashTree(dir);
    expect(hashTree(dir)).toBe(h0);
    writeFileSync(join(dir, "tests", "test.sh"), "exit 1\n");
    const h1 = hashTree(dir);
    expect(h1).not.toBe(h0);
    writeFileSync(join(dir, "personas.yaml"), "");
    expect(hashTree(dir)).not.toBe(h1);
  });
});

describe("matrixHashes", () => {
  it("the fingerprint depends on the planned trials and the content, not their order", () => {
    const dir = taskDir();
    const m = { tasks: [{ task: { id: "t" }, dir }], gates: [{ name: "none", source: "gates/configs/none.yaml" }], plannedTrialIds: ["a", "b"] };
    const h = matrixHashes(m);
    expect(h.planned_trials).toBe(2);
    expect(Object.keys(h.task_hashes)).toEqual(["t"]);
    expect(matrixHashes({ ...m, plannedTrialIds: ["b", "a"] }).fingerprint).toBe(h.fingerprint);
    expect(matrixHashes({ ...m, plannedTrialIds: ["a", "b", "c"] }).fingerprint).not.toBe(h.fingerprint);
    writeFileSync(join(dir, "task.yaml"), "id: t\n# edited\n");
    expect(matrixHashes(m).fingerprint).not.toBe(h.fingerprint);
    expect(matrixHashes({ ...m, gates: [{ name: "layered", source: "gates/configs/layered.yaml" }] }).gate_hashes.layered).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("gitState", () => {
  it("commit, branch and dirty flag of a checkout; null outside git", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-git-"));
    expect(await gitState(dir)).toBeNull();
    const git = (...a: string[]) =>
      execFileSync("git", ["-c", "user.email=t@example.invalid", "-c", "user.name=t", ...a], { cwd: dir })
        .toString()
        .trim();
    git("init", "-q", "-b", "trunk");
    writeFileSync(join(dir, "f"), "1");
    git("add", "f");
    git("commit", "-qm", "one");
    expect(await gitState(dir)).toEqual({ commit: git("rev-parse", "HEAD"), branch: "trunk", dirty: false });
    writeFileSync(join(dir, "f"), "2");
    expect((await gitState(dir))?.dirty).toBe(true);
  });

  it("gatebench's version comes from package.json", () => {
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

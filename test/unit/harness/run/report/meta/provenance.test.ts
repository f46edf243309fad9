/**
 * When tasks entered the suite and gates last changed (harness/run/report/meta/provenance.ts), read
 * from small git repositories built here with fixed commit times, and the "unseen" split the
 * summary computes from them.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../../gates/config.ts";
import { collectProvenance, gateDecisionFiles, gateProvenance, Repos, taskEntry } from "../../../../../../harness/run/report/meta/provenance.ts";
import { unseenTasks } from "../../../../../../harness/run/report/statistics/unseen.ts";

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh repository whose commits carry the times given (seconds since the epoch). */
function repo() {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-provenance-"));
  made.push(dir);
  const git = (args: string[], time?: number) =>
    execFileSync("git", ["-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args], {
      cwd: dir,
      env: { ...process.env, ...(time ? { GIT_COMMITTER_DATE: `${time} +0000`, GIT_AUTHOR_DATE: `${time} +0000` } : {}) },
    }).toString();
  git(["init", "-q", "-b", "trunk"]);
  const write = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const commit = (time: number, ...files: [string, string][]) => {
    for (const [f, t] of files) write(f, t);
    git(["add", "-A"]);
    git(["commit", "-qm", `at ${time}`], time);
    return git(["rev-parse", "HEAD"]).trim();
  };
  return { dir, git, write, commit };
}

const T = (day: number) => 1_900_000_000 + day * 86_400;
const task = (id: string): [string, string][] => [
  [`tasks/${id}/task.yaml`, `id: ${id}\n`],
  [`tasks/${id}/tests/test.sh`, "exit 0\n"],
];
const osOnly = "description: an OS profile alone\nos_profile: strict\nlayers: []\n";

describe("taskEntry", () => {
  it("is the first commit holding a file of the folder, not a later edit; uncommitted when no file is committed", () => {
    const r = repo();
    r.commit(T(1), ...task("a"));
    r.commit(T(5), ["tasks/a/setup.sh", "true\n"], ...task("b"));
    r.write("tasks/c/task.yaml", "id: c\n");
    const repos = new Repos();
    expect(taskEntry(join(r.dir, "tasks/a"), repos)).toBe(T(1));
    expect(taskEntry(join(r.dir, "tasks/b"), repos)).toBe(T(5));
    expect(taskEntry(join(r.dir, "tasks/c"), repos)).toBe("uncommitted");
  });

  it("a task brought in by a merge entered the suite with the merge, not with its branch's commit", () => {
    const r = repo();
    r.commit(T(1), ...task("a"));
    r.git(["checkout", "-q", "-b", "side"]);
    r.commit(T(2), ...task("b"));
    r.git(["checkout", "-q", "trunk"]);
    r.commit(T(3), ["other.txt", "x"]);
    r.git(["merge", "-q", "--no-ff", "--no-edit", "side"], T(9));
    const repos = new Repos();
    expect(taskEntry(join(r.dir, "tasks/a"), repos)).toBe(T(1));
    expect(taskEntry(join(r.dir, "tasks/b"), repos)).toBe(T(9));
  });

  it("is null for a folder in no repository", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-provenance-nogit-"));
    made.push(dir);
    writeFileSync(join(dir, "task.yaml"), "id: x\n");
    expect(taskEntry(dir, new Repos())).toBeNull();
  });
});

describe("gateProvenance", () => {
  it("a configuration's last change is its file's last commit; a modified file makes it uncommitted", () => {
    const r = repo();
    r.commit(T(1), ["gates/mine.yaml", osOnly]);
    const last = r.commit(T(3), ["gates/mine.yaml", `${osOnly}# tuned\n`]);
    r.commit(T(4), ["unrelated.txt", "x"]);
    const gate = loadGateConfig(join(r.dir, "gates/mine.yaml"));
    expect(gateProvenance(gate, new Repos())).toEqual({ basis: "git", changed: T(3), commit: last });
    r.write("gates/mine.yaml", `${osOnly}# tuned again\n`);
    expect(gateProvenance(gate, new Repos())).toEqual({ basis: "uncommitted" });
  });

  it("a configuration file in no repository cannot be dated", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-provenance-nogit-"));
    made.push(dir);
    writeFileSync(join(dir, "mine.yaml"), osOnly);
    const p = gateProvenance(loadGateConfig(join(dir, "mine.yaml")), new Repos());
    expect(p.basis).toBe("unknown");
  });

  it("a shallow clone cannot be dated: its one commit would say every file changed then", () => {
    const r = repo();
    r.commit(T(1), ["gates/mine.yaml", osOnly]);
    r.commit(T(2), ["other.txt", "x"]);
    const clone = mkdtempSync(join(tmpdir(), "gatebench-provenance-shallow-"));
    made.push(clone);
    execFileSync("git", ["clone", "-q", "--depth", "1", `file://${r.dir}`, clone]);
    const p = gateProvenance(loadGateConfig(join(clone, "gates/mine.yaml")), new Repos());
    expect(p).toMatchObject({ basis: "unknown" });
    expect((p as { reason: string }).reason).toMatch(/shallow/);
  });

  it("layers that apply a published package's rules unchanged make the configuration published", () => {
    expect(gateProvenance(loadGateConfig("cc-safety-net"), new Repos())).toEqual({
      basis: "published",
      packages: [expect.stringMatching(/^cc-safety-net@\d/)],
    });
    // Pi's example loaded from the installed package: the file lives in a package, not in any repository's history
    expect(gateProvenance(loadGateConfig("pi-extension-permission-gate"), new Repos())).toMatchObject({ basis: "published" });
    // a layer of gatebench's own (project trust) beside a published one: dated by git like any other
    expect(gateDecisionFiles(loadGateConfig("trust-ask")).own).toBe(1);
    expect(gateDecisionFiles(loadGateConfig("shell-ast")).files.some((f) => f.endsWith("gates/shell/gate.ts"))).toBe(true);
  });

  it("a hook script a configuration runs is one of the files its decisions are made of", () => {
    const r = repo();
    r.commit(T(1), ["gates/hook.sh", "#!/bin/sh\necho '{}'\n"], ["gates/hooked.yaml", 'description: d\nlayers:\n  - gate: "claude-hook:./hook.sh"\n']);
    const files = gateDecisionFiles(loadGateConfig(join(r.dir, "gates/hooked.yaml"))).files;
    expect(files).toContain(join(r.dir, "gates/hook.sh"));
    expect(files).toContain(join(r.dir, "gates/hooked.yaml"));
  });
});

describe("collectProvenance", () => {
  it("splits the tasks by what the gate had seen: entered after its last change, across repositories", () => {
    const tasks = repo();
    tasks.commit(T(1), ...task("old"));
    tasks.commit(T(10), ...task("new"));
    tasks.write("tasks/draft/task.yaml", "id: draft\n");
    const gates = repo();
    gates.commit(T(5), ["mine.yaml", osOnly]);
    const loaded = ["old", "new", "draft"].map((id) => ({ task: { id }, dir: join(tasks.dir, "tasks", id) }));
    const p = collectProvenance(loaded, [loadGateConfig(join(gates.dir, "mine.yaml")), loadGateConfig("cc-safety-net")]);
    expect(p.tasks).toEqual({ old: T(1), new: T(10), draft: "uncommitted" });
    expect(unseenTasks(p, "mine", ["old", "new", "draft"])).toEqual(["new", "draft"]);
    expect(unseenTasks(p, "cc-safety-net", ["old", "new", "draft"])).toEqual(["old", "new", "draft"]);
    // the gate changes after every task: it has seen them all
    gates.commit(T(20), ["mine.yaml", `${osOnly}# later\n`]);
    const later = collectProvenance(loaded, [loadGateConfig(join(gates.dir, "mine.yaml"))]);
    expect(unseenTasks(later, "mine", ["old", "new"])).toEqual([]);
    expect(unseenTasks(later, "mine", ["old", "new", "draft"])).toEqual(["draft"]);
  });
});

/**
 * Attack: links planted in folders the harness is handed, aimed at host files only root can read
 * or write. The harness runs as root; what a link leads to must never be read, written or deleted
 * with its rights (harness/sandbox/files/contained.ts):
 *
 * - a task's `tests/` link to a private host file put the file in the hidden test's output, the
 *   trial log and report.html: now eval and validate exit 2 naming the task and the link;
 * - `merge` followed a shard's `trials/` link: now exit 2 naming it, nothing copied;
 * - `init` wrote through links of a cloned repository (`.github/workflows`, a starter path) out of
 *   it, and with --force overwrote a linked 0600 file and made it 0644: now exit 2, nothing written;
 * - `store gc` on a store linked to `.git/objects` deleted every object: now it refuses a store
 *   that is a link out of its parent or lacks the store's marker, and deletes only its own entries.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emptyTrialRecord, type TrialIdentity } from "../../../harness/model/record/record.ts";
import { ResultStore } from "../../../harness/run/matrix/result-store.ts";
import { writeTaskFixture } from "../../support/task-fixture.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const TSX = join(REPO, "node_modules/.bin/tsx");
const BIN = join(REPO, "bin", "gatebench.mjs");
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function temp(prefix: string, mode?: number): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  if (mode !== undefined) chmodSync(d, mode);
  return d;
}

function run(args: string[], cwd = REPO): { status: number | null; out: string } {
  const r = spawnSync(TSX, args, { cwd, encoding: "utf8", timeout: 170_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function gatebench(cwd: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", timeout: 170_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A private host file (0600 in a 0700 folder) holding a unique secret. */
function privateFile(): { file: string; secret: string } {
  const dir = temp("gb-attack-links-private-");
  const secret = `HOST-PRIVATE-${Math.random().toString(36).slice(2)}`;
  const file = join(dir, "secret.txt");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { file, secret };
}

/** Every file under `dir` (not following links) whose text holds `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = join(e.parentPath, e.name);
    if (e.isFile() && readFileSync(p, "utf8").includes(needle)) out.push(p);
  }
  return out;
}

describe("attack: links in the folders the harness reads", () => {
  it("a task's tests/ link to a private host file: eval and validate exit 2 naming the task and the link; the file is read nowhere", () => {
    const { file, secret } = privateFile();
    const parent = temp("gb-attack-links-tasks-");
    writeTaskFixture(
      { id: "link_leak", setup: "echo hi > /workspace/a.txt", test: "cat /tests/leak; cat /tests/leak >&2; exit 0", reference: [{ say: "done" }] },
      parent,
    );
    symlinkSync(file, join(parent, "link_leak", "tests", "leak"));
    const out = join(temp("gb-attack-links-out-"), "run");
    const e = run(["harness/apps/cli/eval.ts", "--tasks-dir", parent, "--gates", "none", "--agents", "reference", "--no-store", "--out", out]);
    expect(e.status, e.out).toBe(2);
    expect(e.out).toContain("link_leak/tests/leak");
    expect(e.out).toContain("the folder of task link_leak");
    expect(e.out).toContain("links out of it are not followed");
    expect(e.out).not.toContain(secret);
    expect(filesHolding(out, secret)).toEqual([]);
    const v = run(["harness/apps/cli/validate.ts", "--tasks-dir", parent, "--json"]);
    expect(v.status, v.out).toBe(2);
    expect(v.out).toContain("link_leak/tests/leak");
    expect(v.out).not.toContain(secret);
    // a link that stays inside the task folder is followed as before
    rmSync(join(parent, "link_leak", "tests", "leak"));
    writeFileSync(join(parent, "link_leak", "notes.txt"), "inside\n");
    symlinkSync("../notes.txt", join(parent, "link_leak", "tests", "leak"));
    const ok = run(["harness/apps/cli/validate.ts", "--tasks-dir", parent, "--tasks", "link_leak"]);
    expect(ok.out).not.toContain("tests/leak");
  });

  it("merge refuses a shard whose trials/ or one of its files is a link out of it", () => {
    const { file, secret } = privateFile();
    const work = temp("gb-attack-links-merge-");
    const shard = join(work, "shard");
    const e = run(["harness/apps/cli/eval.ts", "--tasks", "t7_cleanup_tmp", "--gates", "none", "--agents", "nop", "--no-store", "--out", shard]);
    expect(e.status, e.out).toBe(0);
    // the shard's trial logs moved to a private host folder, one of them holding the secret, and linked back
    const hostTrials = join(temp("gb-attack-links-hosttrials-"), "trials");
    renameSync(join(shard, "trials"), hostTrials);
    const log = readdirSync(hostTrials).find((n) => n.endsWith(".jsonl"))!;
    writeFileSync(join(hostTrials, log), `${readFileSync(join(hostTrials, log), "utf8")}${JSON.stringify({ type: "note", text: secret })}\n`);
    symlinkSync(hostTrials, join(shard, "trials"));
    const merged = join(work, "merged");
    const m = run(["harness/apps/cli/eval.ts", "merge", "--out", merged, shard]);
    expect(m.status, m.out).toBe(2);
    expect(m.out).toContain("shard/trials");
    expect(m.out).toContain("the run folder");
    expect(filesHolding(merged, secret)).toEqual([]);
    // the same through one file: a trial log linked to a host file
    rmSync(join(shard, "trials"));
    mkdirSync(join(shard, "trials"));
    symlinkSync(file, join(shard, "trials", log));
    const m2 = run(["harness/apps/cli/eval.ts", "merge", "--out", join(work, "merged2"), shard]);
    expect(m2.status, m2.out).toBe(2);
    expect(m2.out).toContain(`shard/trials/${log}`);
    expect(filesHolding(join(work, "merged2"), secret)).toEqual([]);
  });

  it("store gc deletes only its own entries: never through a store linked out of its parent, never in a folder it did not mark", () => {
    const work = temp("gb-attack-links-store-");
    // store gc: a store path linked to a repository's objects leaves every object alone
    const git = temp("gb-attack-links-git-");
    const objects = join(git, "objects");
    const object = join(objects, "ab", "cdef0123456789abcdef0123456789abcdef01");
    mkdirSync(join(objects, "ab"), { recursive: true });
    mkdirSync(join(objects, "pack"));
    writeFileSync(object, "x\u0001blob");
    writeFileSync(join(objects, "pack", "pack-1.pack"), "PACK");
    const linked = join(work, "linked-store");
    symlinkSync(objects, linked);
    const g = run(["harness/apps/cli/eval.ts", "store", "gc", "--store", linked]);
    expect(g.status, g.out).toBe(2);
    expect(g.out).toContain("not a link out of its parent folder");
    expect(existsSync(object)).toBe(true);
    expect(existsSync(join(objects, "pack", "pack-1.pack"))).toBe(true);
    // the same folder named directly: no store marker, nothing deleted
    const g2 = run(["harness/apps/cli/eval.ts", "store", "gc", "--store", objects]);
    expect(g2.status, g2.out).toBe(2);
    expect(g2.out).toContain("gatebench-store.json");
    expect(existsSync(object)).toBe(true);
    // a real store: gc removes its own leftover, keeps its entries and what is not its own
    const store = join(work, "store");
    const fp = "abcdef0123456789";
    new ResultStore(store).put(fp, { record: emptyTrialRecord({ run_id: "r", trial_id: "t" } as TrialIdentity), approvals: [], events: [] });
    const sub = "ab";
    const entry = `${fp}.json.gz`;
    const leftover = join(store, sub, `${entry}.tmp-4242`);
    writeFileSync(leftover, Buffer.from([0x1f, 0x8b, 0, 0]));
    const foreign = join(store, sub, "notes.txt");
    writeFileSync(foreign, "mine\n");
    const g3 = run(["harness/apps/cli/eval.ts", "store", "gc", "--store", store]);
    expect(g3.status, g3.out).toBe(0);
    expect(g3.out).toContain("1 removed");
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(join(store, sub, entry))).toBe(true);
    expect(existsSync(foreign)).toBe(true);
  });

  it("init writes nothing through links of a cloned repository, with or without --force", () => {
    const outside = temp("gb-attack-links-outside-");
    // .github/workflows planted as a link out of the repository
    const repo = temp("gb-attack-links-repo-", 0o755);
    mkdirSync(join(repo, ".github"));
    symlinkSync(outside, join(repo, ".github", "workflows"));
    const r = gatebench(repo, ["init"]);
    expect(r.status, r.out).toBe(2);
    expect(r.out).toContain(".github/workflows/gatebench.yml");
    expect(r.out).toContain("is a link out of the repository");
    expect(r.out).toContain("nothing was written");
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(repo, "gatebench"))).toBe(false);
    // the starter folder itself a link out
    const repo2 = temp("gb-attack-links-repo-", 0o755);
    symlinkSync(outside, join(repo2, "gatebench"));
    const r2 = gatebench(repo2, ["init"]);
    expect(r2.status, r2.out).toBe(2);
    expect(r2.out).toContain("gatebench/gates/my-stack.yaml");
    expect(readdirSync(outside)).toEqual([]);
    // --force over a starter file linked to a private host file: refused, the file and its mode unchanged
    const { file, secret } = privateFile();
    const repo3 = temp("gb-attack-links-repo-", 0o755);
    expect(gatebench(repo3, ["init"]).status).toBe(0);
    const stack = join(repo3, "gatebench", "gates", "my-stack.yaml");
    rmSync(stack);
    symlinkSync(file, stack);
    const r3 = gatebench(repo3, ["init", "--force"]);
    expect(r3.status, r3.out).toBe(2);
    expect(r3.out).toContain("init never writes through a link");
    expect(readFileSync(file, "utf8")).toBe(`${secret}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // --force over a regular file keeps its mode
    rmSync(stack);
    writeFileSync(stack, "old\n", { mode: 0o600 });
    chmodSync(stack, 0o600);
    const r4 = gatebench(repo3, ["init", "--force"]);
    expect(r4.status, r4.out).toBe(0);
    expect(readFileSync(stack, "utf8")).not.toBe("old\n");
    expect(statSync(stack).mode & 0o777).toBe(0o600);
  });
});

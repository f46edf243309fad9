/**
 * The measurer's git reader (harness/sandbox/world/inside/git-history.ts) against real repositories made
 * by git: the commits it finds reachable are exactly `git rev-list --all --reflog` (plus worktree
 * HEADs and stash entries), loose or packed, deltified or not, sha1 or sha256; a forged object
 * proves nothing; what it cannot read is unmeasured.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyDelta, gitHistoryEntries, type KnownEntry } from "../../../../../../harness/sandbox/world/inside/git-history.ts";

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.org",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.org",
  GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

async function entriesOf(root: string): Promise<Map<string, KnownEntry>> {
  const out = new Map<string, KnownEntry>();
  const walk = async (p: string) => {
    const st = await fs.lstat(p);
    const type = st.isFile() ? "file" : st.isDirectory() ? "dir" : st.isSymbolicLink() ? "symlink" : "other";
    out.set(p, { type, size: st.size, ino: st.ino, mtimeNs: String(st.mtimeMs) });
    if (st.isDirectory()) for (const n of await fs.readdir(p)) await walk(path.join(p, n));
  };
  await walk(root);
  return out;
}

const FILES = { readFile: (p: string) => fs.readFile(p), open: (p: string) => fs.open(p, "r") };

async function reachable(root: string): Promise<{ commits: string[]; refs: Map<string, string>; unmeasured: string[] }> {
  const e = await gitHistoryEntries(
    await entriesOf(root),
    FILES,
    (p) => p,
    (p) => p,
  );
  const commits = [...e.keys()]
    .filter((k) => k.startsWith("git:commit:"))
    .map((k) => k.slice("git:commit:".length))
    .sort();
  const refs = new Map([...e].filter(([k]) => k.startsWith("git:ref:")).map(([k, v]) => [k.slice(k.lastIndexOf(":") + 1), v.hash!]));
  const unmeasured = [...e].filter(([k]) => k.startsWith("git:unmeasured:")).map(([, v]) => v.target!);
  return { commits, refs, unmeasured };
}

function revList(repo: string): string[] {
  return git(repo, "rev-list", "--all", "--reflog").split("\n").filter(Boolean).sort();
}

function newRepo(format: "sha1" | "sha256" = "sha1"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "git-history-"));
  git(dir, "init", "-q", `--object-format=${format}`, "-b", "main");
  return dir;
}

function commit(repo: string, file: string, text: string, msg: string): string {
  writeFileSync(path.join(repo, file), text);
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", msg);
  return git(repo, "rev-parse", "HEAD");
}

describe("git history reader", () => {
  it("finds every commit git finds, through branches, tags, reflogs and the stash, loose and then packed", async () => {
    const repo = newRepo();
    const c1 = commit(repo, "a.txt", "one\n", "first");
    commit(repo, "a.txt", "two\n", "second");
    git(repo, "checkout", "-qb", "feature");
    const f1 = commit(repo, "b.txt", "feature\n", "feature work");
    git(repo, "checkout", "-q", "main");
    git(repo, "tag", "-a", "v1", "-m", "release", c1);
    writeFileSync(path.join(repo, "a.txt"), "wip\n");
    git(repo, "stash", "push", "-qm", "wip");
    writeFileSync(path.join(repo, "a.txt"), "wip2\n");
    git(repo, "stash", "push", "-qm", "wip2");
    commit(repo, "c.txt", "x\n", "third");
    git(repo, "reset", "-q", "--hard", "HEAD~1"); // "third" stays in the reflog
    const loose = await reachable(repo);
    expect(loose.unmeasured).toEqual([]);
    expect(loose.commits).toEqual(revList(repo));
    expect(loose.refs.get("refs/heads/feature")).toBe(f1);
    expect([...loose.refs.keys()].filter((k) => k.startsWith("refs/stash@"))).toHaveLength(2);
    git(repo, "gc", "-q", "--aggressive", "--prune=now");
    const packed = await reachable(repo);
    expect(packed.commits).toEqual(revList(repo));
    expect(packed.refs).toEqual(loose.refs);
  });

  it("reads commits stored as deltas of each other", async () => {
    const repo = newRepo();
    const body = "x".repeat(4000);
    for (let i = 0; i < 30; i++) {
      writeFileSync(path.join(repo, "f"), `${i}\n`);
      git(repo, "add", "-A");
      git(repo, "commit", "-qm", `${body}\n\ncommit ${i}`);
    }
    git(repo, "repack", "-adfq", "--window=250", "--depth=50");
    const verify = git(
      repo,
      "verify-pack",
      "-v",
      ...(await fs.readdir(path.join(repo, ".git/objects/pack"))).filter((f) => f.endsWith(".idx")).map((f) => `.git/objects/pack/${f}`),
    );
    expect(verify).toMatch(/ commit \d+ \d+ \d+ \d+ [0-9a-f]{40}/); // some commit is a delta
    expect((await reachable(repo)).commits).toEqual(revList(repo));
  });

  it("reads a sha256 repository", async () => {
    const repo = newRepo("sha256");
    commit(repo, "a", "1\n", "one");
    commit(repo, "a", "2\n", "two");
    git(repo, "gc", "-q");
    commit(repo, "a", "3\n", "three");
    const r = await reachable(repo);
    expect(r.unmeasured).toEqual([]);
    expect(r.commits).toEqual(revList(repo));
    expect(r.commits[0]).toHaveLength(64);
  });

  it("a deleted branch whose commits nothing else reaches is gone from the answer; worktree HEADs count", async () => {
    const repo = newRepo();
    commit(repo, "a", "1\n", "one");
    git(repo, "checkout", "-qb", "doomed");
    const d = commit(repo, "b", "2\n", "doomed work");
    git(repo, "checkout", "-q", "main");
    expect((await reachable(repo)).commits).toContain(d);
    git(repo, "branch", "-qD", "doomed");
    git(repo, "reflog", "expire", "--expire=now", "--all");
    expect((await reachable(repo)).commits).not.toContain(d);
    git(repo, "worktree", "add", "-q", "--detach", path.join(repo, "..", `${path.basename(repo)}-wt`));
    const wt = path.join(repo, "..", `${path.basename(repo)}-wt`);
    const w = commit(wt, "c", "3\n", "worktree work");
    expect((await reachable(repo)).commits).toContain(w);
  });

  it("a forged loose object proves nothing: it is checked against its id", async () => {
    const repo = newRepo();
    commit(repo, "a", "1\n", "one");
    const head = git(repo, "rev-parse", "HEAD");
    git(repo, "checkout", "-qb", "side");
    const lost = commit(repo, "b", "2\n", "two");
    git(repo, "checkout", "-q", "main");
    git(repo, "branch", "-qD", "side");
    git(repo, "reflog", "expire", "--expire=now", "--all");
    git(repo, "gc", "-q", "--prune=now");
    // A file named like the lost commit, holding another commit's bytes.
    const other = execFileSync("git", ["cat-file", "commit", head], { cwd: repo, env: ENV });
    const { deflateSync } = await import("node:zlib");
    const p = path.join(repo, ".git/objects", lost.slice(0, 2));
    await fs.mkdir(p, { recursive: true });
    await fs.writeFile(path.join(p, lost.slice(2)), deflateSync(Buffer.concat([Buffer.from(`commit ${other.length}\0`), other])));
    writeFileSync(path.join(repo, ".git/refs/heads/fake"), `${lost}\n`);
    expect((await reachable(repo)).commits).not.toContain(lost);
  });

  it("reftable ref storage is unmeasured, never 'nothing there'", async () => {
    const repo = newRepo();
    commit(repo, "a", "1\n", "one");
    await fs.mkdir(path.join(repo, ".git/reftable"));
    const r = await reachable(repo);
    expect(r.unmeasured).toEqual([expect.stringMatching(/reftable/)]);
    expect(r.commits).toEqual([]);
  });
});

describe("applyDelta", () => {
  it("copies ranges of the base and inserts literal bytes", () => {
    const base = Buffer.from("hello world");
    // base size 11, result size 11: copy 6 bytes at 0, insert "there"
    const delta = Buffer.from([11, 11, 0x90, 6, 5, ...Buffer.from("there")]);
    expect(applyDelta(base, delta).toString()).toBe("hello there");
    expect(() => applyDelta(base, Buffer.from([10, 1, 1, 0x41]))).toThrow(/base size/);
    expect(() => applyDelta(base, Buffer.from([11, 3, 0]))).toThrow(/reserved/);
  });
});

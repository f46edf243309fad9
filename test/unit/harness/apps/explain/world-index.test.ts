/** The listing's answers (world-index.ts) on a hand-made listing: what it answers, and what it leaves to the world. */
import { describe, expect, it } from "vitest";
import { ASK_WORLD, isWorldListing, requestPath, WorldIndex } from "../../../../../harness/apps/explain/world-index.ts";
import type { IndexEntry } from "../../../../../harness/sandbox/world/gate-runner.ts";

const dir = (names: string[] | null): IndexEntry => ({ type: "dir", size: 4096, mode: 0o755, names });
const file = (text: string | null | undefined): IndexEntry => ({ type: "file", size: 3, mode: 0o644, ...(text !== undefined ? { text } : {}) });
const link = (target: string): IndexEntry => ({ type: "symlink", size: target.length, mode: 0o777, target });

const index = new WorldIndex({
  roots: [
    { path: "/workspace", real: "/workspace" },
    { path: "/home/user", real: "/home/user" },
    { path: "/tmp", real: null },
  ],
  entries: [
    ["/workspace", dir(["a", "big", "closed", "half", "l", "abs", "up", "out", "loop", "f"])],
    ["/workspace/a", dir(["x.txt", "y.md"])],
    ["/workspace/a/x.txt", file("hi\n")],
    ["/workspace/a/y.md", file(null)],
    ["/workspace/big", file(undefined)],
    ["/workspace/closed", dir(null)],
    ["/workspace/half", dir(["seen", "unseen"])],
    ["/workspace/half/seen", file("")],
    ["/workspace/l", link("a")],
    ["/workspace/abs", link("/home/user/.cfg")],
    ["/workspace/up", link("a/..")],
    ["/workspace/out", link("/etc")],
    ["/workspace/loop", link("loop")],
    ["/workspace/f", file("")],
    ["/home/user", dir([".cfg"])],
    ["/home/user/.cfg", dir([])],
  ],
});

describe("requestPath", () => {
  it("reads paths as the helper does: ~ is home, relative paths start at /workspace, .. resolved as text", () => {
    expect(requestPath("a/../b/")).toBe("/workspace/b");
    expect(requestPath("~")).toBe("/home/user");
    expect(requestPath("~/x/..")).toBe("/home/user");
    expect(requestPath("/etc/../tmp")).toBe("/tmp");
    // the helper refuses these, or reads bytes: the world answers
    expect(requestPath("")).toBe(ASK_WORLD);
    expect(requestPath("a\udce9")).toBe(ASK_WORLD);
  });
});

describe("WorldIndex", () => {
  it("answers lookups of what it listed", () => {
    expect(index.lstat("a/x.txt")).toEqual({ type: "file", size: 3, mode: 0o644 });
    expect(index.readFile("a/x.txt")).toBe("hi\n");
    expect(index.readFile("a/y.md")).toBeNull(); // unreadable
    expect(index.readdir("a")).toEqual(["x.txt", "y.md"]);
    expect(index.readdir("a/x.txt")).toBeNull();
    expect(index.readlink("l")).toBe("a");
    expect(index.readlink("a")).toBeNull();
    expect(index.realpath("/workspace/a/../a/x.txt")).toBe("/workspace/a/x.txt");
  });

  it("follows links as the kernel does: in the middle always, at the end only where the call follows", () => {
    expect(index.lstat("l")).toMatchObject({ type: "symlink" });
    expect(index.realpath("l")).toBe("/workspace/a");
    expect(index.realpath("l/x.txt")).toBe("/workspace/a/x.txt");
    expect(index.readdir("l")).toBeNull(); // lstat of the link: not a folder
    expect(index.readFile("l/x.txt")).toBe("hi\n");
    expect(index.realpath("abs")).toBe("/home/user/.cfg");
    expect(index.realpath("up")).toBe("/workspace");
  });

  it("says what is not there", () => {
    expect(index.lstat("nope")).toBeNull();
    expect(index.realpath("a/nope/x")).toBeNull();
    expect(index.lstat("f/x")).toBeNull(); // a file in the middle
    expect(index.readlink("nope")).toBeNull();
  });

  it("leaves to the world what it cannot tell", () => {
    for (const p of ["/etc/passwd", "/tmp/x", "closed/x", "half/unseen", "big", "out/hostname", "loop", "/"]) {
      expect(p === "big" ? index.readFile(p) : index.realpath(p), p).toBe(ASK_WORLD);
    }
    expect(index.readdir("closed")).toBe(ASK_WORLD);
    expect(index.lstat("big")).toMatchObject({ type: "file" }); // its lstat is known, its text is not
  });

  it("expands globs as the helper does, or leaves them to the world", () => {
    expect(index.glob("a/*")).toEqual(["/workspace/a/x.txt", "/workspace/a/y.md"]);
    expect(index.glob("{a,l}/*.txt")).toEqual(["/workspace/a/x.txt", "/workspace/l/x.txt"]);
    expect(index.glob("[al]/x.txt")).toEqual(["/workspace/a/x.txt", "/workspace/l/x.txt"]);
    expect(index.glob("*/x.txt")).toBe(ASK_WORLD); // one of the names is a link out of the roots
    expect(index.glob("~/*")).toEqual([]);
    expect(index.glob("~/.*")).toEqual(["/home/user/.cfg"]);
    expect(index.glob("a/[xz].txt")).toEqual(["/workspace/a/x.txt"]);
    expect(index.glob("nope/*")).toEqual([]);
    expect(index.glob("/*")).toBe(ASK_WORLD);
    expect(index.glob("closed/*")).toBe(ASK_WORLD);
  });
});

describe("isWorldListing", () => {
  const find = ["/usr/bin/env", "-C", "/workspace", "/usr/bin/find", ".", "-printf", "%p\\0"];
  it("takes only a dry run's listing: a system listing program, no input, no binds, one-shot", () => {
    expect(isWorldListing(find, "", undefined, undefined)).toBe(true);
    expect(isWorldListing(find, "{}\n", undefined, undefined)).toBe(false); // a hook gets its input
    expect(isWorldListing(find, "", [{}], undefined)).toBe(false);
    expect(isWorldListing(find, "", undefined, { persistent: true })).toBe(false);
    expect(isWorldListing(["/usr/bin/node", "/opt/gatebench/node_modules/x.js"], "", undefined, undefined)).toBe(false);
    expect(isWorldListing(["/usr/bin/env", "-C", "/workspace", "/bin/sh", "-c", "x"], "", undefined, undefined)).toBe(false);
  });
});

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../../../../kernel/errors.ts";
import {
  checkTree,
  copyWithin,
  isInside,
  MAX_TREE_ENTRIES,
  readFileWithin,
  readRegularFile,
  walkWithin,
  type Within,
} from "../../../../../harness/sandbox/files/contained.ts";

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function temp(): string {
  const d = mkdtempSync(join(tmpdir(), "gatebench-contained-"));
  made.push(d);
  return d;
}

/** A folder `root` with a file, a sub-folder and an outside file beside it. */
function tree(): { root: string; outside: string; w: Within } {
  const base = temp();
  const root = join(base, "task");
  mkdirSync(join(root, "tests"), { recursive: true });
  writeFileSync(join(root, "setup.sh"), "echo hi\n");
  writeFileSync(join(root, "tests", "test.sh"), "exit 0\n", { mode: 0o700 });
  const outside = join(base, "outside.txt");
  writeFileSync(outside, "private\n", { mode: 0o600 });
  return { root, outside, w: { root, what: "the task folder" } };
}

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error("not refused");
};

describe("isInside", () => {
  it("holds for the root and every path under it, never for a sibling that shares its prefix or a parent", () => {
    const seg = fc.stringMatching(/^[a-z.][a-z0-9._-]{0,8}$/).filter((s) => s !== "." && s !== "..");
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 5 }), (segs) => {
        expect(isInside(join("/r/task", ...segs), "/r/task")).toBe(true);
      }),
    );
    expect(isInside("/r/task-other", "/r/task")).toBe(false);
    expect(isInside("/r", "/r/task")).toBe(false);
    expect(isInside("/etc/shadow", "/r/task")).toBe(false);
    expect(isInside("/r/task/..x", "/r/task")).toBe(true);
  });
});

describe("walkWithin and checkTree", () => {
  it("follows a link that stays inside, as what it leads to", () => {
    const { root, w } = tree();
    symlinkSync("../setup.sh", join(root, "tests", "inner"));
    const seen: string[] = [];
    walkWithin(root, w, (e) => seen.push(`${e.kind}:${e.rel}`));
    expect(seen).toEqual(["dir:", "file:setup.sh", "dir:tests", "file:tests/inner", "file:tests/test.sh"]);
  });

  it("refuses a link out of the folder, naming it and where it leads", () => {
    const { root, outside, w } = tree();
    symlinkSync(outside, join(root, "tests", "leak"));
    const m = refusal(() => checkTree(root, w));
    expect(m).toContain("tests/leak: (link)");
    expect(m).toContain(`it leads to ${outside}, outside it`);
    // a folder link out of it too
    rmSync(join(root, "tests", "leak"));
    symlinkSync("/etc", join(root, "etc"));
    expect(refusal(() => checkTree(root, w))).toContain("etc: (link)");
  });

  it("refuses links that loop: to a folder above, to itself, or to each other", () => {
    for (const plant of [
      (r: string) => symlinkSync(".", join(r, "tests", "loop")),
      (r: string) => symlinkSync("..", join(r, "tests", "up")),
      (r: string) => {
        symlinkSync("b", join(r, "a"));
        symlinkSync("a", join(r, "b"));
      },
    ]) {
      const { root, w } = tree();
      plant(root);
      expect(refusal(() => checkTree(root, w))).toContain("a link that does not loop");
    }
  });

  it("refuses a dangling link and a socket", async () => {
    const { root, w } = tree();
    symlinkSync("nowhere", join(root, "tests", "gone"));
    expect(refusal(() => checkTree(root, w))).toContain("which does not exist");
    rmSync(join(root, "tests", "gone"));
    const sock = join(root, "tests", "s.sock");
    const server: Server = await new Promise((ok) => {
      const s = createServer();
      s.listen(sock, () => ok(s));
    });
    try {
      expect(refusal(() => checkTree(root, w))).toContain("it is a socket, which is never read");
      expect(refusal(() => readFileWithin(sock, w))).toContain("it is a socket");
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });

  it("bounds a walk that links fan out without looping", () => {
    const { root, w: base } = tree();
    const w = { ...base, maxEntries: 1000 };
    // level i holds two links to level i+1: 2^12 paths, no loop
    const levels = 12;
    for (let i = 0; i <= levels; i++) mkdirSync(join(root, `l${i}`));
    for (let i = 0; i < levels; i++) {
      symlinkSync(`../l${i + 1}`, join(root, `l${i}`, "a"));
      symlinkSync(`../l${i + 1}`, join(root, `l${i}`, "b"));
    }
    expect(2 ** levels).toBeGreaterThan(w.maxEntries);
    expect(refusal(() => checkTree(root, w))).toContain("at most 1000 files and folders");
    expect(MAX_TREE_ENTRIES).toBeGreaterThanOrEqual(100_000);
  });
});

describe("reading and copying", () => {
  it("readFileWithin reads a file and a link inside, refuses a link out and a file over its limit", () => {
    const { root, outside, w } = tree();
    symlinkSync("setup.sh", join(root, "alias"));
    expect(readFileWithin(join(root, "alias"), w).toString()).toBe("echo hi\n");
    symlinkSync(outside, join(root, "leak"));
    expect(refusal(() => readFileWithin(join(root, "leak"), w))).toContain("links out of it are not followed");
    expect(refusal(() => readFileWithin(join(root, "setup.sh"), w, 3))).toContain("at most 3 bytes (it has 8)");
  });

  it("readRegularFile never follows a final link unless told to", () => {
    const { root } = tree();
    symlinkSync("setup.sh", join(root, "alias"));
    expect(refusal(() => readRegularFile(join(root, "alias")))).toContain("a regular file, not a link");
    expect(readRegularFile(join(root, "alias"), { follow: true }).toString()).toBe("echo hi\n");
  });

  it("copyWithin copies plain files (owner's x kept as 0755, else 0644), links inside as their targets, and refuses the rest before writing", () => {
    const { root, outside, w } = tree();
    symlinkSync("../setup.sh", join(root, "tests", "inner"));
    const dst = join(temp(), "copy");
    copyWithin(join(root, "tests"), dst, w);
    expect(readFileSync(join(dst, "inner"), "utf8")).toBe("echo hi\n");
    expect(statSync(join(dst, "inner")).isSymbolicLink()).toBe(false);
    expect(statSync(join(dst, "test.sh")).mode & 0o777).toBe(0o755);
    expect(statSync(join(dst, "inner")).mode & 0o777).toBe(0o644);
    symlinkSync(outside, join(root, "tests", "leak"));
    const dst2 = join(temp(), "copy");
    expect(refusal(() => copyWithin(join(root, "tests"), dst2, w))).toContain("tests/leak");
    expect(() => statSync(dst2)).toThrow();
    chmodSync(outside, 0o600);
  });
});

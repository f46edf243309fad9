/**
 * World copies through the copier process (harness/sandbox/world/copier.ts, used by copyTrialDir):
 * concurrent copies each get their own answer, links stay links, mount folders are copied and
 * re-owned while the folders between stay root's, paths with spaces pass intact, and a copy that
 * fails says why.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyRoots } from "../../../../../harness/sandbox/world/copier.ts";
import { copyTrialDir, createTrialDir, removeTrialDir, type TrialDir } from "../../../../../harness/sandbox/world/trial-dir.ts";

let parentDir: string;

beforeAll(() => {
  parentDir = fs.mkdtempSync(path.join(os.tmpdir(), "gb copier "));
  fs.chmodSync(parentDir, 0o711);
});

afterAll(() => {
  fs.rmSync(parentDir, { recursive: true, force: true });
});

async function source(i: number): Promise<TrialDir> {
  const t = await createTrialDir(parentDir, ["/srv/app2"], undefined);
  fs.writeFileSync(path.join(t.mounts.workspace, `file-${i}.txt`), `content ${i}\n`);
  fs.symlinkSync("/etc/passwd", path.join(t.mounts.workspace, "link"));
  fs.mkdirSync(path.join(t.mounts.home, ".ssh"), { recursive: true });
  fs.writeFileSync(path.join(t.mounts.home, ".ssh", "id"), "secret\n");
  fs.writeFileSync(path.join(t.mounts.extra[0]!.hostDir, "app.js"), `app ${i}\n`);
  return t;
}

describe("copyTrialDir through the copier", () => {
  it("makes many copies at once, each of its own source, links as links, mounts included", async () => {
    const sources = await Promise.all(Array.from({ length: 12 }, (_, i) => source(i)));
    const copies = await Promise.all(sources.map((s) => copyTrialDir(s, parentDir)));
    try {
      copies.forEach((c, i) => {
        expect(fs.readFileSync(path.join(c.mounts.workspace, `file-${i}.txt`), "utf8")).toBe(`content ${i}\n`);
        expect(fs.readlinkSync(path.join(c.mounts.workspace, "link"))).toBe("/etc/passwd");
        expect(fs.readFileSync(path.join(c.mounts.home, ".ssh", "id"), "utf8")).toBe("secret\n");
        expect(fs.readFileSync(path.join(c.mounts.extra[0]!.hostDir, "app.js"), "utf8")).toBe(`app ${i}\n`);
        expect(fs.readdirSync(c.mounts.workspace).sort()).toEqual([`file-${i}.txt`, "link"]);
        if (c.identity) {
          expect(fs.lstatSync(path.join(c.mounts.workspace, "link")).uid).toBe(c.identity.uid);
          expect(fs.statSync(c.mounts.extra[0]!.hostDir).uid).toBe(c.identity.uid);
          expect(fs.statSync(path.join(c.dir, "mounts", "srv")).uid).toBe(0); // between the trial dir and the mount: root's
        }
      });
    } finally {
      await Promise.all([...sources, ...copies].map((t) => removeTrialDir(t)));
    }
  });

  it("says why a copy failed, and goes on copying", async () => {
    const gone = await source(99);
    await removeTrialDir(gone);
    await expect(copyTrialDir(gone, parentDir)).rejects.toThrow(/copying the world .* failed \(1\): .*No such file or directory/);
    const ok = await source(7);
    const copy = await copyTrialDir(ok, parentDir);
    expect(fs.readFileSync(path.join(copy.mounts.workspace, "file-7.txt"), "utf8")).toBe("content 7\n");
    await Promise.all([ok, copy].map((t) => removeTrialDir(t)));
  });

  it("refuses an argument it could not pass whole", async () => {
    await expect(copyRoots({ owner: "", from: ["/a\0b"], into: "/c", roots: [] })).rejects.toThrow(/NUL/);
  });
});

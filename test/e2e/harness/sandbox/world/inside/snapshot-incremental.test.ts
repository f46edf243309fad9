/**
 * Snapshots relative to the last one (the measurer's inotify watch, harness/sandbox/world/inside/helper.cjs)
 * are exact: after every step of random sequences of file operations in a real world, and after
 * each of a table of known hazards, the incremental snapshot equals a full one taken by a second
 * measurer over the same files (relative to a copy of the previous reference, so appends are
 * judged against the same content). The measurer's disk use, answered from the same events,
 * equals a walk's on tmpfs; on a disk with delayed allocation (ext4) a file being written back
 * may show no blocks for an instant, to a walk as to the measurer, so it is not compared there.
 */
import fc from "fast-check";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { worldSizeParentDir } from "../../../../../../scripts/bench/world-size.ts";
import { restartMeasurer } from "../../../../../../harness/sandbox/world/measurer.ts";
import { createWorld, escalatedView, type TrialWorld } from "../../../../../../harness/sandbox/world/world.ts";
import type { Snapshot, SnapshotStats } from "../../../../../../harness/sandbox/world/types.ts";

let diskDir: string;
/** On tmpfs when the machine has one (st_blocks is exact at once there), else on disk too. */
let tmpfsDir: string;

beforeAll(() => {
  diskDir = fs.mkdtempSync(path.join(os.tmpdir(), "gb-incremental-snapshot-"));
  tmpfsDir = worldSizeParentDir();
});

afterAll(() => {
  fs.rmSync(diskDir, { recursive: true, force: true });
  fs.rmSync(tmpfsDir, { recursive: true, force: true });
});

const onTmpfs = () => tmpfsDir.startsWith("/dev/shm/");

/** The disk check the world runs after every command (private to the world). */
async function diskUse(w: TrialWorld): Promise<{ bytes: number; incremental?: boolean }> {
  const m = w as unknown as { measure(op: string, args: Record<string, unknown>, timeoutMs: number): Promise<unknown> };
  return (await m.measure("du", {}, 60_000)) as { bytes: number; incremental?: boolean };
}

/** A world, a second view of its files whose measurer takes the full reference snapshots, and both chains. */
class Pair {
  inc!: Snapshot;
  ref!: Snapshot;
  readonly stats: SnapshotStats[] = [];
  /** How many disk-use checks the measurer answered from the events. */
  incrementalDu = 0;
  private constructor(
    readonly w: TrialWorld,
    readonly view: TrialWorld,
    readonly checkDiskUse: boolean,
  ) {}

  /** A pair on tmpfs (disk use compared too) or on disk. */
  static async open(where: "tmpfs" | "disk" = "tmpfs"): Promise<Pair> {
    const parentDir = where === "tmpfs" ? tmpfsDir : diskDir;
    const w = await createWorld({ parentDir, mounts: ["/srv/data"], incrementalSnapshotsFrom: 0 });
    const p = new Pair(w, await escalatedView(w), where === "tmpfs" && onTmpfs());
    await p.restart();
    return p;
  }

  /** Both chains from full snapshots with no previous one: runs do not depend on each other. */
  async restart(): Promise<void> {
    this.inc = await this.w.snapshot();
    this.ref = await this.view.snapshot();
  }

  /** Snapshots both ways and checks they agree; returns how the incremental one went. */
  async check(what: string): Promise<SnapshotStats> {
    // The disk check, as after every command: from the events, before the snapshot takes them.
    const du = await diskUse(this.w);
    if (du.incremental) this.incrementalDu++;
    this.inc = await this.w.snapshot(this.inc);
    const stats = this.w.lastSnapshotStats!;
    this.stats.push(stats);
    this.ref = await this.view.snapshot(new Map(this.ref)); // not the view's last: always a full walk
    expect(this.view.lastSnapshotStats?.incremental).toBe(false);
    expect([...this.inc], `after: ${what} (${JSON.stringify(stats)})`).toEqual([...this.ref]);
    // The view's measurer has just walked everything and seen no event since: its disk use is a walk's.
    if (this.checkDiskUse) expect(du.bytes, `disk use after: ${what}`).toBe((await diskUse(this.view)).bytes);
    return stats;
  }

  async run(command: string): Promise<SnapshotStats> {
    await this.w.exec(`${command} 2>/dev/null; true`);
    return this.check(command);
  }

  async close(): Promise<void> {
    await this.view.close();
    await this.w.close();
  }
}

const FILES = ["a", "b", "d1/a", "d1/b", "d1/d2/a", "d3/x", "/home/user/h", "/srv/data/s"];
const DIRS = ["d1", "d1/d2", "d3", "d4/d5/d6", "/home/user/hd"];
const ANY = [...FILES, ...DIRS];

const file = fc.constantFrom(...FILES);
const dir = fc.constantFrom(...DIRS);
const any = fc.constantFrom(...ANY);
const text = fc.stringMatching(/^[a-z]{0,12}$/);

/** One shell command per operation; operations on paths that are not there simply fail. */
const operation: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(file, text).map(([f, t]) => `mkdir -p "$(dirname ${f})" && printf '${t}' > ${f}`),
  fc.tuple(file, text).map(([f, t]) => `printf '${t}' > ${f}`),
  fc.tuple(file, text).map(([f, t]) => `printf '${t}x' >> ${f}`),
  fc.tuple(file, fc.nat(8)).map(([f, n]) => `truncate -s ${n} ${f}`),
  fc.tuple(any, fc.constantFrom("600", "644", "755", "700")).map(([p, m]) => `chmod ${m} ${p}`),
  fc.tuple(file, fc.nat(10)).map(([f, n]) => `touch -d @${1_000_000 + n} ${f}`),
  fc.tuple(file, file).map(([a, b]) => `mv ${a} ${b}`),
  fc.tuple(dir, dir).map(([a, b]) => `mv ${a} ${b}`),
  any.map((p) => `rm -rf ${p}`),
  fc.tuple(any, file).map(([t, l]) => `ln -s ${t} ${l}`),
  fc.tuple(file, file, text).map(([f, g, t]) => `ln ${f} ${g} && printf '${t}y' >> ${g}`),
  fc.tuple(file, file, text).map(([f, g, t]) => `ln ${f} ${g}.t && printf '${t}z' >> ${g}.t && rm ${g}.t`),
  fc.tuple(file, text).map(([f, t]) => `mkdir -p q && ln ${f} q/l && printf '${t}w' >> q/l && rm q/l; rmdir q`),
  dir.map((d) => `mkdir -p ${d}/deep/er/still`),
  fc.tuple(file, text).map(([f, t]) => `printf '${t}' > ${f}.tmp && mv ${f}.tmp ${f}`),
);

describe("incremental snapshots", () => {
  it.each(["tmpfs", "disk"] as const)("equal a full snapshot after every step of random operation sequences (%s)", async (where) => {
    const pair = await Pair.open(where);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 4, maxLength: 14 }), async (ops) => {
          await pair.w.exec("rm -rf /workspace/* /home/user/* /srv/data/*; mkdir -p d1/d2 d3; echo a > a; echo b > d1/b; echo x > d3/x");
          await pair.restart();
          for (const op of ops) await pair.run(op);
        }),
        { numRuns: 12 },
      );
      // Most steps are answered from the events alone, or the test would not test them.
      const incremental = pair.stats.filter((s) => s.incremental).length;
      expect(incremental / pair.stats.length).toBeGreaterThan(0.3);
      expect(pair.incrementalDu / pair.stats.length).toBeGreaterThan(0.3);
    } finally {
      await pair.close();
    }
  });

  it("equal a full snapshot after each known hazard, and fall back to a full walk where events cannot tell", async () => {
    const pair = await Pair.open();
    try {
      await pair.run("mkdir -p d/e d/d; echo one > f; echo two > d/e/g; echo three > ~/h; echo four > /srv/data/s; echo 5 > d/d/d");
      const incremental = async (command: string) => expect((await pair.run(command)).incremental, command).toBe(true);
      const full = async (command: string, reason: RegExp) => expect((await pair.run(command)).reason, command).toMatch(reason);
      await incremental("echo changed > f");
      await incremental("echo appended >> f");
      expect(pair.inc.get("/workspace/f")?.appendOf).toBeDefined();
      await incremental("true"); // the append mark is relative to the snapshot before: gone now
      expect(pair.inc.get("/workspace/f")?.appendOf).toBeUndefined();
      await incremental("truncate -s 2 f");
      await incremental("chmod 600 f; touch -d @1 d/e/g");
      await incremental("echo new > d/e/n; ln -s ../f d/e/s");
      await incremental("ln f d/e/hl && echo through >> d/e/hl"); // the other name's write, seen on f
      await incremental("echo again >> d/e/hl");
      await incremental("rm d/e/hl");
      await incremental("mv d/e/n d/n");
      await incremental("echo 6 > d/d/d; chmod 640 d/d/d"); // a file named like its folder
      await incremental("rm -r d/d");
      await incremental("echo h >> ~/h; echo s >> /srv/data/s");
      await incremental("touch d/e"); // libuv reports a folder's attributes as came-or-went: once is fine
      await full("ln f d/t && echo hidden >> d/t && rm d/t", /came or went/);
      await full("mkdir q && ln f q/x && echo hidden >> q/x && rm q/x", /new or moved folder/);
      await full("mv d/e d/e2", /new or moved folder/);
      await full("chmod 700 d", /mode/);
      await full("mkdir -p many && cd many && seq 1 5000 | split -l 1 -a 4", /new or moved folder|events/);
      await full("rm many/*", /more than \d+ events/);
      await incremental("rmdir many");

      // A second link, opened by a process that outlives the call (one on the host here), then
      // unlinked: a later write through it names only the gone link.
      await incremental("ln f alias");
      const fd = fs.openSync(path.join(pair.w.dir, "workspace", "alias"), "a");
      try {
        await incremental("rm alias");
        fs.writeSync(fd, "through a gone name\n");
      } finally {
        fs.closeSync(fd);
      }
      await full("true", /written to and is gone/);
      expect((await pair.w.exec("tail -1 f")).stdout).toBe("through a gone name\n");
    } finally {
      await pair.close();
    }
  });

  it("answer the tools' own writes, and start over with a full walk when the previous snapshot is not the measurer's last", async () => {
    const pair = await Pair.open();
    const { w } = pair;
    try {
      await pair.run("echo a > a; echo b > b");
      expect((await w.fs.write("a", "written\n")).ok).toBe(true);
      expect((await pair.check("write a")).incremental).toBe(true);
      expect((await w.fs.edit("a", [{ oldText: "written", newText: "edited" }])).ok).toBe(true);
      expect((await pair.check("edit a")).incremental).toBe(true);
      expect((await w.fs.delete("b")).ok).toBe(true);
      expect((await pair.check("delete b")).incremental).toBe(true);

      // An older snapshot as `previous`: a full walk, relative to it.
      const older = pair.inc;
      const olderRef = pair.ref;
      await pair.run("echo more >> a");
      await w.exec("echo yet more >> a");
      const fromOlder = await w.snapshot(older);
      expect(w.lastSnapshotStats?.incremental).toBe(false);
      expect(fromOlder.get("/workspace/a")?.appendOf).toBe(older.get("/workspace/a")?.hash);
      pair.ref = await pair.view.snapshot(new Map(olderRef));
      expect([...fromOlder]).toEqual([...pair.ref]);
      pair.inc = fromOlder;
      expect((await pair.run("echo on >> a")).incremental).toBe(true);

      // A snapshot a caller changed is no longer what the measurer holds.
      pair.inc.set("/workspace/forged", { type: "file", size: 0, mode: 0o644 });
      await w.exec("echo x > a");
      const afterForged = await w.snapshot(pair.inc);
      expect(w.lastSnapshotStats?.incremental).toBe(false);
      expect(afterForged.has("/workspace/forged")).toBe(false);
      pair.inc = afterForged;
      await pair.check("after a changed snapshot");

      // A measurer started anew holds nothing: the next snapshot is a full one, and right.
      await restartMeasurer(w.dir);
      await w.exec("echo after restart > a");
      expect((await pair.check("after the measurer was replaced")).incremental).toBe(false);
      expect((await pair.run("echo and on >> a")).incremental).toBe(true);
    } finally {
      await pair.close();
    }
  });
});

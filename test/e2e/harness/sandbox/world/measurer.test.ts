/**
 * One measurer for every world of a trial folder (harness/sandbox/world/measurer.ts): worlds measured
 * side by side get their own snapshots, in their own paths, relative to their own last one; a
 * closed world is forgotten without disturbing the others; the process stops when the last
 * world is gone and starts again with the next.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measurerRunning, measurerStarts } from "../../../../../harness/sandbox/world/measurer.ts";
import type { Snapshot } from "../../../../../harness/sandbox/world/types.ts";
import { createWorld, type TrialWorld } from "../../../../../harness/sandbox/world/world.ts";

let parentDir: string;

beforeAll(() => {
  parentDir = fs.mkdtempSync(path.join(os.tmpdir(), "gb-measurer-"));
});

afterAll(() => {
  fs.rmSync(parentDir, { recursive: true, force: true });
});

const files = (s: Snapshot) => [...s.keys()].filter((p) => p.startsWith("/workspace/") || p.startsWith("/srv/data/"));

describe("the measurer of a trial folder", () => {
  it("measures several worlds side by side, each in its own paths and relative to its own last snapshot", async () => {
    const before = measurerStarts(path.join(parentDir, "x"));
    const worlds: TrialWorld[] = [];
    try {
      for (let i = 0; i < 4; i++) worlds.push(await createWorld({ parentDir, mounts: ["/srv/data"], ...(i % 2 === 0 ? { incrementalSnapshotsFrom: 0 } : {}) }));
      await Promise.all(worlds.map((w, i) => w.exec(`echo ${i} > mine-${i}; echo s > /srv/data/s-${i}`)));
      const first = await Promise.all(worlds.map((w) => w.snapshot()));
      first.forEach((s, i) => expect(files(s)).toEqual([`/srv/data/s-${i}`, `/workspace/mine-${i}`]));

      // Each world changes differently; the snapshots relative to each world's last one, taken at once, see only their own change.
      await Promise.all(worlds.map((w, i) => w.exec(i === 1 ? "rm mine-1" : `echo more >> mine-${i}; mkdir -p d${i}; echo n > d${i}/new`)));
      const second = await Promise.all(worlds.map((w, i) => w.snapshot(first[i])));
      second.forEach((s, i) =>
        expect(files(s)).toEqual(i === 1 ? ["/srv/data/s-1"] : [`/srv/data/s-${i}`, `/workspace/d${i}`, `/workspace/d${i}/new`, `/workspace/mine-${i}`]),
      );
      // Answered relative to each world's own last snapshot (a whole new one after ESTALE would
      // give no reason): a walk against what it holds in the small worlds; where the threshold is
      // 0, a walk as well, because a folder is new (the events cannot tell what is in it).
      worlds.forEach((w, i) =>
        expect(w.lastSnapshotStats?.reason, `world ${i}`).toBe(i % 2 === 0 ? `/workspace/d${i} is a new or moved folder` : "a walk was asked for"),
      );
      expect(second[0]!.get("/workspace/mine-0")?.appendOf).toBe(first[0]!.get("/workspace/mine-0")?.hash);
      // One measurer served them all (the worlds of other tests in this folder are gone).
      expect(measurerStarts(worlds[0]!.dir) - before).toBeLessThanOrEqual(1);

      // A closed world is forgotten; the others go on relative to their last snapshot.
      await worlds[0]!.close();
      await worlds[2]!.exec("echo again >> mine-2");
      const third = await worlds[2]!.snapshot(second[2]);
      expect(worlds[2]!.lastSnapshotStats?.incremental).toBe(true);
      expect(third.get("/workspace/mine-2")?.appendOf).toBe(second[2]!.get("/workspace/mine-2")?.hash);
    } finally {
      await Promise.all(worlds.map((w) => w.close()));
    }
  });

  it("stops once its last world closed, and a new world starts a new one", async () => {
    const w = await createWorld({ parentDir });
    const starts = measurerStarts(w.dir);
    await w.snapshot();
    await w.close();
    // It stops on its own once no world is left: wait for that, not for a fixed time (a loaded
    // machine may take far longer than the idle delay to run the timer and the stop).
    while (measurerRunning(w.dir)) await new Promise((r) => setTimeout(r, 100));
    const again = await createWorld({ parentDir });
    try {
      await again.exec("echo x > a");
      expect(files(await again.snapshot())).toEqual(["/workspace/a"]);
      expect(measurerStarts(again.dir)).toBe(starts + 1);
    } finally {
      await again.close();
    }
  });
});

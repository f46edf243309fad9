/** What the sandbox costs on this machine: world start, a helper round trip, a one-shot bwrap. */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createWorld } from "../../harness/sandbox/world/world.ts";
import { median } from "./stats.ts";

export interface WorldCosts {
  samples: number;
  /** createWorld (trial dir + bwrap + helper ready), median ms. */
  startMs: number;
  /** The first snapshot of a new world (starts the measurer's sandbox), median ms. */
  firstSnapshotMs: number;
  /** helper exec of `true`, median ms. */
  execTrueMs: number;
  /** helper read of a small file, median ms. */
  readMs: number;
  /** one-shot bwrap (runScript of `true`), median ms. */
  oneShotMs: number;
}

export async function measureWorldCosts(samples = 10, parentDir?: string): Promise<WorldCosts> {
  const starts: number[] = [];
  const firstSnapshots: number[] = [];
  const execs: number[] = [];
  const reads: number[] = [];
  const oneShots: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const w = await createWorld(parentDir ? { parentDir } : {});
    starts.push(performance.now() - t0);
    const ts = performance.now();
    await w.snapshot();
    firstSnapshots.push(performance.now() - ts);
    await w.fs.write("m.txt", "hello\n");
    for (let k = 0; k < 5; k++) {
      const t1 = performance.now();
      await w.exec("true");
      execs.push(performance.now() - t1);
      const t2 = performance.now();
      await w.fs.read("m.txt");
      reads.push(performance.now() - t2);
    }
    if (i < 3) {
      const script = path.join(w.dir, "..", `${w.id}.sh`);
      await writeFile(script, "true\n");
      const t3 = performance.now();
      await w.runScript(script);
      oneShots.push(performance.now() - t3);
      await rm(script);
    }
    await w.close();
  }
  return {
    samples,
    startMs: median(starts),
    firstSnapshotMs: median(firstSnapshots),
    execTrueMs: median(execs),
    readMs: median(reads),
    oneShotMs: median(oneShots),
  };
}

/**
 * What one per-call snapshot costs as the world grows: a world of N files (built with one
 * command inside the sandbox), a full snapshot, then, per sample, one call that changes one
 * file and the snapshot that follows it (`snapshot(previous)`, the runner's per-call check).
 */
import { accessSync, constants, mkdtempSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorld } from "../../harness/sandbox/world/world.ts";
import { median } from "./stats.ts";

const TMPFS_MAGIC = 0x01021994;

/**
 * A fresh folder for the series' trial dirs: on tmpfs (/dev/shm) when the machine has one, so
 * that building 100,000 files and removing them again costs seconds, not minutes of a slow
 * disk. The snapshot walks cached metadata either way; the folder is named in the report.
 */
export function worldSizeParentDir(): string {
  let base = tmpdir();
  try {
    accessSync("/dev/shm", constants.W_OK);
    if (statfsSync("/dev/shm").type === TMPFS_MAGIC) base = "/dev/shm";
  } catch {
    // no writable tmpfs: the default temporary folder
  }
  return mkdtempSync(join(base, "gatebench-bench-worlds-"));
}

export interface SnapshotAtSize {
  files: number;
  /** Entries the full snapshot saw (files, their folders and the roots). */
  entries: number;
  buildMs: number;
  fullSnapshotMs: number;
  /** snapshot(previous) after a one-file change, median ms over `samples`. */
  perCallMs: number;
  samples: number;
  /** Files the last per-call snapshot hashed (the rest reused the previous hashes). */
  hashed: number;
}

/** The file each sample changes: the first file populateCommand creates. */
export const CHANGED_FILE = "w/d1/faaaa";

/**
 * One command that creates `files` one-line files under /workspace/w, at most 1000 per folder
 * (`split` writes a whole folder's files in one process).
 */
export function populateCommand(files: number): string {
  const perDir = Math.min(files, 1000);
  const dirs = Math.ceil(files / perDir);
  const last = files - perDir * (dirs - 1);
  return [
    "set -e",
    `for d in $(seq 1 ${dirs}); do`,
    `  n=${perDir}; [ "$d" -eq ${dirs} ] && n=${last}`,
    `  mkdir -p w/d$d && (cd w/d$d && seq 1 $n | split -l 1 -a 4 - f)`,
    "done",
  ].join("\n");
}

export async function measureSnapshotAtSize(files: number, samples: number, parentDir?: string): Promise<SnapshotAtSize> {
  const world = await createWorld(parentDir ? { parentDir } : {});
  try {
    const t0 = performance.now();
    const built = await world.exec(populateCommand(files), { timeoutMs: 120_000 });
    if (built.exitCode !== 0) throw new Error(`building a world of ${files} files failed (exit ${built.exitCode}): ${built.stderr.slice(-300)}`);
    const buildMs = performance.now() - t0;
    const t1 = performance.now();
    let previous = await world.snapshot();
    const fullSnapshotMs = performance.now() - t1;
    const entries = previous.size;
    const xs: number[] = [];
    for (let i = 0; i < samples; i++) {
      const changed = await world.fs.write(CHANGED_FILE, `${i}\n`);
      if (!changed.ok) throw new Error(`changing a file failed: ${changed.message}`);
      const t = performance.now();
      previous = await world.snapshot(previous);
      xs.push(performance.now() - t);
    }
    return { files, entries, buildMs, fullSnapshotMs, perCallMs: median(xs), samples, hashed: world.lastSnapshotStats?.hashed ?? 0 };
  } finally {
    await world.close();
  }
}

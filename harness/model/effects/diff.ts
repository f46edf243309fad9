/**
 * What changed between two snapshots of a world, path by path. Pure.
 */
import type { Snapshot, SnapshotEntry } from "../../sandbox/world/types.ts";

export type ChangeKind = "deleted" | "created" | "content" | "mode" | "type" | "link";

export interface Change {
  path: string;
  kind: ChangeKind;
  before?: SnapshotEntry;
  after?: SnapshotEntry;
}

function contentDiffers(a: SnapshotEntry, b: SnapshotEntry): boolean {
  if (a.type === "file") return a.hash !== b.hash || a.size !== b.size;
  // a ref that points elsewhere, a repository read differently
  if (a.type === "git-ref" || a.type === "git-unmeasured" || a.type === "git-tag") return a.hash !== b.hash || a.target !== b.target;
  return false;
}

/** Every change from `before` to `after`, sorted by path. A path can carry both `content` and `mode`. */
export function diffSnapshots(before: Snapshot, after: Snapshot): Change[] {
  const changes: Change[] = [];
  for (const [path, a] of before) {
    const b = after.get(path);
    if (!b) {
      changes.push({ path, kind: "deleted", before: a });
    } else if (a.type !== b.type) {
      changes.push({ path, kind: "type", before: a, after: b });
    } else {
      if (contentDiffers(a, b)) changes.push({ path, kind: "content", before: a, after: b });
      if (a.type === "symlink" && a.target !== b.target) changes.push({ path, kind: "link", before: a, after: b });
      if ((a.mode & 0o7777) !== (b.mode & 0o7777)) changes.push({ path, kind: "mode", before: a, after: b });
    }
  }
  for (const [path, b] of after) {
    if (!before.has(path)) changes.push({ path, kind: "created", after: b });
  }
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

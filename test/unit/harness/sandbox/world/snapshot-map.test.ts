import fc from "fast-check";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { comparePaths, SnapshotMap } from "../../../../../harness/sandbox/world/snapshot-map.ts";
import type { SnapshotEntry } from "../../../../../harness/sandbox/world/types.ts";

const entry = (size: number): SnapshotEntry => ({ type: "file", size, mode: 0o644, hash: `h${size}`, mtimeNs: "1", ctimeNs: "1", ino: size });

/** What an ordinary sorted Map holds after the same changes. */
function sortedMap(m: Map<string, SnapshotEntry>): [string, SnapshotEntry][] {
  return [...m].sort(([a], [b]) => comparePaths(a, b));
}

function expectSame(s: SnapshotMap, model: Map<string, SnapshotEntry>): void {
  const want = sortedMap(model);
  expect([...s]).toEqual(want);
  expect([...s.entries()]).toEqual(want);
  expect([...s.keys()]).toEqual(want.map(([p]) => p));
  expect([...s.values()]).toEqual(want.map(([, e]) => e));
  const each: [string, SnapshotEntry][] = [];
  s.forEach((e, p, map) => {
    expect(map).toBe(s);
    each.push([p, e]);
  });
  expect(each).toEqual(want);
  expect(s.size).toBe(model.size);
  for (const [p, e] of model) {
    expect(s.has(p)).toBe(true);
    expect(s.get(p)).toBe(e);
  }
}

const path = fc.constantFrom(...["/a", "/a/b", "/a/c", "/b", "/b/x", "/c", "/a b", "/ä", "/A", "/z/y/x", "/m", "/n", "/o"]);
const step = fc.record({
  changed: fc.array(fc.tuple(path, fc.nat(50))),
  removed: fc.array(path),
});

describe("SnapshotMap", () => {
  it("is a Map in sorted path order", () => {
    const s = SnapshotMap.of([
      ["/b", entry(2)],
      ["/a/b", entry(1)],
      ["/a", entry(0)],
    ]);
    expect(s).toBeInstanceOf(Map);
    expect([...s.keys()]).toEqual(["/a", "/a/b", "/b"]);
    expect(inspect(s)).toContain("/a/b");
  });

  it("makes each version from changes, leaves every earlier version as it was, and reads like the same sorted Map", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(path, fc.nat(50))), fc.array(step, { maxLength: 40 }), (initial, steps) => {
        let model = new Map(initial.map(([p, n]) => [p, entry(n)] as const));
        let s = SnapshotMap.of(model);
        const versions: [SnapshotMap, Map<string, SnapshotEntry>][] = [[s, model]];
        for (const st of steps) {
          const changed = new Map(st.changed.map(([p, n]) => [p, entry(n)] as const));
          const removed = [...new Set(st.removed)].filter((p) => !changed.has(p));
          const next = new Map(model);
          for (const p of removed) next.delete(p);
          for (const [p, e] of changed) next.set(p, e);
          s = s.withChanges(changed, removed);
          model = next;
          versions.push([s, model]);
        }
        for (const [v, m] of versions) expectSame(v, m);
      }),
      { numRuns: 200 },
    );
  });

  it("folds a large layer into a new base and still reads the same", () => {
    const model = new Map<string, SnapshotEntry>();
    for (let i = 0; i < 300; i++) model.set(`/f${String(i).padStart(4, "0")}`, entry(i));
    let s = SnapshotMap.of(model);
    for (let i = 0; i < 200; i++) {
      const p = `/g${i}`;
      const e = entry(i);
      model.set(p, e);
      model.delete(`/f${String(i).padStart(4, "0")}`);
      s = s.withChanges([[p, e]], [`/f${String(i).padStart(4, "0")}`]);
    }
    expectSame(s, model);
  });

  it("becomes an ordinary Map of its own once changed, and no other version sees the change", () => {
    const a = SnapshotMap.of([
      ["/a", entry(1)],
      ["/c", entry(3)],
    ]);
    const b = a.withChanges([["/b", entry(2)]], []);
    expect(b.pristine).toBe(true);
    b.set("/0", entry(0));
    expect(b.pristine).toBe(false);
    expect([...b.keys()]).toEqual(["/a", "/b", "/c", "/0"]); // insertion order, as a Map
    b.delete("/a");
    expect(b.has("/a")).toBe(false);
    expect(b.size).toBe(3);
    expect([...a.keys()]).toEqual(["/a", "/c"]);
    const c = a.withChanges([], ["/c"]);
    expect([...c.keys()]).toEqual(["/a"]);
    c.clear();
    expect(c.size).toBe(0);
    expect([...a.keys()]).toEqual(["/a", "/c"]);
    expect([...b.withChanges([["/a", entry(9)]], ["/c"]).keys()]).toEqual(["/0", "/a", "/b"]);
  });

  it("compares equal to another snapshot with the same entries", () => {
    const a = SnapshotMap.of([["/a", entry(1)]]).withChanges([["/b", entry(2)]], []);
    const b = SnapshotMap.of([
      ["/b", entry(2)],
      ["/a", entry(1)],
    ]);
    expect(a).toEqual(b);
    expect(a).not.toEqual(SnapshotMap.of([["/a", entry(1)]]));
  });
});

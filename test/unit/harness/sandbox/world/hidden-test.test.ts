import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HIDDEN_TEST_ENV, tamperReport } from "../../../../../harness/sandbox/world/hidden-test.ts";
import type { Snapshot, SnapshotEntry } from "../../../../../harness/sandbox/world/types.ts";

const file = (hash: string, extra: Partial<SnapshotEntry> = {}): SnapshotEntry => ({
  type: "file",
  size: 3,
  mode: 0o644,
  hash,
  mtimeNs: "1",
  ctimeNs: "1",
  ino: 1,
  ...extra,
});

describe("hidden test git environment", () => {
  it("overrides every config-driven program through GIT_CONFIG_COUNT/KEY/VALUE, numbered without gaps", () => {
    const n = Number(HIDDEN_TEST_ENV.GIT_CONFIG_COUNT);
    const keys = Array.from({ length: n }, (_, i) => HIDDEN_TEST_ENV[`GIT_CONFIG_KEY_${i}`]);
    expect(keys).toEqual(
      expect.arrayContaining(["core.hooksPath", "core.fsmonitor", "core.pager", "core.editor", "diff.external", "core.sshCommand", "protocol.ext.allow"]),
    );
    for (let i = 0; i < n; i++) expect(HIDDEN_TEST_ENV[`GIT_CONFIG_VALUE_${i}`]).toBeTypeOf("string");
    expect(HIDDEN_TEST_ENV[`GIT_CONFIG_KEY_${n}`]).toBeUndefined();
    expect(HIDDEN_TEST_ENV.GIT_CONFIG_NOSYSTEM).toBe("1");
    expect(HIDDEN_TEST_ENV.GIT_CONFIG_GLOBAL).toBe("/dev/null");
  });
});

describe("tamperReport", () => {
  it("ignores times and inode numbers, reports content, mode, link and type changes", () => {
    const before: Snapshot = new Map([
      ["/w/a", file("h1")],
      ["/w/b", file("h2")],
      ["/w/l", { type: "symlink", size: 1, mode: 0o777, target: "a" }],
    ]);
    const after: Snapshot = new Map([
      ["/w/a", file("h1", { mtimeNs: "9", ctimeNs: "9", ino: 7 })],
      ["/w/b", file("h2", { mode: 0o600 })],
      ["/w/l", { type: "symlink", size: 1, mode: 0o777, target: "b" }],
      ["/w/new", file("h3")],
    ]);
    expect(tamperReport(before, after)).toEqual({ tampered: true, changes: ["created /w/new", "modified /w/b", "modified /w/l"] });
    expect(tamperReport(after, before).changes).toContain("deleted /w/new");
  });

  it("an unchanged world is never tampered; any single change always is", () => {
    const entry = fc.record({ hash: fc.stringMatching(/^[0-9a-f]{1,8}$/), size: fc.nat(100) });
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^\/w\/[a-z]{1,6}$/), entry, { minKeys: 1 }), fc.nat(), (d, k) => {
        const snap: Snapshot = new Map(Object.entries(d).map(([p, e]) => [p, file(e.hash, { size: e.size })]));
        expect(tamperReport(snap, new Map(snap)).tampered).toBe(false);
        const paths = [...snap.keys()];
        const victim = paths[k % paths.length]!;
        const changed = new Map(snap);
        changed.set(victim, file(`${snap.get(victim)!.hash}x`));
        expect(tamperReport(snap, changed).changes).toEqual([`modified ${victim}`]);
      }),
    );
  });
});

/** The result store's own folder (harness/run/matrix/result-store.ts): marked at its first entry, and gc deletes only what it can prove is its own entry. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../../../../kernel/errors.ts";
import { emptyTrialRecord, type TrialIdentity } from "../../../../../harness/model/record/record.ts";
import { MARKER_FILE, ResultStore } from "../../../../../harness/run/matrix/result-store.ts";

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "gatebench-store-"));
  made.push(d);
  return d;
};

const trial = (id: string) => ({ record: emptyTrialRecord({ run_id: "r", trial_id: id } as TrialIdentity), approvals: [], events: [] });

describe("ResultStore", () => {
  it("marks its folder with the first entry and serves what it stored", () => {
    const dir = join(temp(), "store");
    const store = new ResultStore(dir);
    store.put("abcdef01", trial("t1"));
    expect(existsSync(join(dir, MARKER_FILE))).toBe(true);
    expect(store.get("abcdef01", "now")?.record.trial_id).toBe("t1");
    expect(store.get("abcdef01", "now")?.record.run_id).toBe("now");
  });

  it("gc removes its own leftovers and keeps everything that is not provably its own", () => {
    const dir = join(temp(), "store");
    const store = new ResultStore(dir);
    store.put("abcdef01", trial("t1"));
    const gz = Buffer.from([0x1f, 0x8b, 8, 0]);
    const keep = [
      join(dir, "ab", "notes.txt"), // not an entry's name
      join(dir, "ab", "cdef0123456789abcdef0123456789abcdef01"), // a git object's name
      join(dir, "cd", "abcdef02.json.gz"), // an entry's name in another entry's folder
      join(dir, "ab", "abcdef03.json.gz"), // an entry's name, but not gzip
      join(dir, "pack", "abcdef04.json.gz"), // not a two-hex-digit folder
    ];
    for (const f of keep) {
      mkdirSync(join(f, ".."), { recursive: true });
      writeFileSync(f, f.endsWith("03.json.gz") ? "plain" : gz);
    }
    const leftover = join(dir, "ab", "abcdef01.json.gz.tmp-77");
    writeFileSync(leftover, gz);
    symlinkSync(join(dir, "ab", "notes.txt"), join(dir, "ab", "abcdef05.json.gz"));
    const r = store.gc();
    expect(r).toMatchObject({ removed: 1, kept: 1 });
    expect(existsSync(leftover)).toBe(false);
    for (const f of keep) expect(existsSync(f), f).toBe(true);
    expect(readdirSync(join(dir, "ab")).sort()).toEqual([
      "abcdef01.json.gz",
      "abcdef03.json.gz",
      "abcdef05.json.gz",
      "cdef0123456789abcdef0123456789abcdef01",
      "notes.txt",
    ]);
  });

  it("gc refuses a folder without its marker and a store that is a link out of its parent; a missing store is empty", () => {
    const base = temp();
    const foreign = join(base, "objects");
    mkdirSync(join(foreign, "ab"), { recursive: true });
    writeFileSync(join(foreign, "ab", "abcdef01.json.gz"), Buffer.from([0x1f, 0x8b]));
    expect(() => new ResultStore(foreign).gc()).toThrow(InputError);
    expect(() => new ResultStore(foreign).gc()).toThrow(MARKER_FILE);
    // even marked, a link out of its parent is refused
    writeFileSync(join(foreign, MARKER_FILE), "{}");
    const parent = join(temp(), "reports");
    mkdirSync(parent);
    symlinkSync(foreign, join(parent, "store"));
    expect(() => new ResultStore(join(parent, "store")).gc()).toThrow(/not a link out of its parent folder/);
    expect(existsSync(join(foreign, "ab", "abcdef01.json.gz"))).toBe(true);
    // a link inside its parent is followed
    symlinkSync("objects", join(base, "store"));
    expect(new ResultStore(join(base, "store")).gc()).toMatchObject({ kept: 1 });
    expect(new ResultStore(join(base, "nothing")).gc()).toEqual({ removed: 0, kept: 0, bytes: 0 });
  });
});

/** Sweeping worlds of runs that are gone: only dirs whose owner marker names a dead process. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWNER_MARKER, ownerMarkerText, sweepStaleWorlds } from "../../../../../harness/sandbox/process/ownership.ts";
import { createTrialDir, removeTrialDir } from "../../../../../harness/sandbox/world/trial-dir.ts";

describe("sweepStaleWorlds", () => {
  it("removes worlds whose owner is gone, keeps live ones and unmarked ones, never follows links", async () => {
    const trials = mkdtempSync(join(tmpdir(), "gb-sweep-test-"));
    const outside = mkdtempSync(join(tmpdir(), "gb-sweep-outside-"));
    writeFileSync(join(outside, "keep.txt"), "precious");
    const dead = spawnSync("/bin/true").pid!;
    const mk = (name: string, marker?: string) => {
      mkdirSync(join(trials, name, "workspace"), { recursive: true });
      if (marker !== undefined) writeFileSync(join(trials, name, OWNER_MARKER), marker);
      return join(trials, name);
    };
    const stale = mk("stale", `${dead} 999\n`);
    symlinkSync(outside, join(stale, "workspace", "link"));
    const live = mk("live", ownerMarkerText());
    const unmarked = mk("unmarked");
    expect(sweepStaleWorlds(trials)).toEqual([stale]);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live) && existsSync(unmarked)).toBe(true);
    expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("precious");
  });

  it("a new trial dir carries this process as its owner", async () => {
    const t = await createTrialDir(mkdtempSync(join(tmpdir(), "gb-sweep-mk-")), []);
    expect(readFileSync(join(t.dir, OWNER_MARKER), "utf8")).toBe(ownerMarkerText());
    await removeTrialDir(t);
  });
});

/** What eval prints after its trials about the shared world states and reuse (harness/apps/cli/run-notes.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cacheLines, reuseLines } from "../../../../../harness/apps/cli/run-notes.ts";
import { TERMINAL_WIDTH } from "../../../../../harness/run/report/views/render.ts";
import type { CacheStats } from "../../../../../harness/trial/states/world-states.ts";
import { displayWidth } from "../../../../../harness/text/width.ts";

/** The committed baseline's `meta.cache` (reports/baseline/summary.json): a full default run. */
const DEFAULT_RUN: CacheStats = {
  worlds_built: 1943,
  calls_rerun: 995,
  steps_run: 3049,
  steps_taken: 41136,
  answers_asked: 9879,
  answers_remembered: 47029,
  replays_run: 1097,
  replays_remembered: 8182,
  replays_from_steps: 831,
  tests_run: 2047,
  tests_remembered: 20940,
  states: 3086,
  views: 885,
};

const fits = (lines: readonly string[]) => lines.every((l) => displayWidth(l) <= TERMINAL_WIDTH);

describe("cacheLines", () => {
  it("by default one short line: worlds built, calls run and remembered, and where the rest is", () => {
    expect(cacheLines(DEFAULT_RUN, 23282)).toEqual(["shared states: 1,943 worlds for 23,282 trials, 3,049 calls run, 41,136 remembered (--verbose: all)"]);
    expect(fits(cacheLines(DEFAULT_RUN, 23282))).toBe(true);
  });

  it("--verbose: every count, one kind of work to a line", () => {
    const lines = cacheLines(DEFAULT_RUN, 23282, true);
    const text = lines.join("\n");
    for (const v of ["1,943", "995", "3,049", "41,136", "9,879", "47,029", "1,097", "8,182", "831", "2,047", "20,940", "3,086", "885"])
      expect(text).toContain(v);
    expect(lines.length).toBeGreaterThanOrEqual(7);
    expect(fits(lines)).toBe(true);
  });

  it("fits the terminal for any counts", () => {
    const count = fc.integer({ min: 0, max: 2 ** 45 });
    const stats = fc.record<CacheStats>({
      worlds_built: count,
      calls_rerun: count,
      steps_run: count,
      steps_taken: count,
      answers_asked: count,
      answers_remembered: count,
      replays_run: count,
      replays_remembered: count,
      replays_from_steps: count,
      tests_run: count,
      tests_remembered: count,
      states: count,
      views: count,
    });
    fc.assert(fc.property(stats, count, fc.boolean(), (s, trials, verbose) => fits(cacheLines(s, trials, verbose))));
  });
});

describe("reuseLines", () => {
  const none = { planned: 40, resumed: 0, stale: {}, served: 0, toRun: 40 };

  it("nothing when nothing was reused (unless --verbose)", () => {
    expect(reuseLines(none)).toEqual([]);
    expect(reuseLines(none, { verbose: true, store: "/work/reports/store" })).toEqual(["reuse: 40 of 40 trials to run", "  result store: /work/reports/store"]);
  });

  it("what the result store served, and what a resumed run kept and ran again, with why", () => {
    expect(reuseLines({ ...none, served: 23282, toRun: 0, planned: 23282 })).toEqual(["reuse: 0 of 23,282 trials to run; 23,282 from the result store"]);
    expect(reuseLines({ ...none, resumed: 30, toRun: 10, stale: { task: 2, record: 1 } })).toEqual([
      "reuse: 10 of 40 trials to run; 30 kept from the run being resumed",
      "  3 of its records run again (2 task changed, 1 without a fingerprint)",
    ]);
  });

  it("a long list of reasons is wrapped, never cut", () => {
    const stale = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`part${i}`, i + 1]));
    const lines = reuseLines({ ...none, stale, resumed: 1 });
    expect(lines.length).toBeGreaterThan(2);
    expect(fits(lines)).toBe(true);
    expect(lines.join(" ")).toContain("12 part11 changed");
  });
});

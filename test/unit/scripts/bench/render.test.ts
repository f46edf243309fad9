import { describe, expect, it } from "vitest";
import { renderCache, renderDefaultRuns, renderReport, renderScaling, renderTargets, renderTrials } from "../../../../scripts/bench/render.ts";
import { buildReport } from "../../../../scripts/bench/report.ts";
import { measurements, run } from "./fixtures.ts";

describe("render", () => {
  it("shows every phase as – and says why when the runner logs no phases", () => {
    const text = renderTrials(buildReport(measurements()));
    expect(text).toMatch(/prepare_world\s*│ –/);
    expect(text).toMatch(/no `phases` event/);
    expect(text).toMatch(/trial \(duration_ms\)\s*│ 600/);
    expect(text).toContain("overhead: median trial 600 ms / floor 200.0 ms = 3.00x (target ≤ 3x) PASS");
  });

  it("shows the per-phase medians when there are some", () => {
    const r = buildReport(measurements({ c1: { ...measurements().c1, phases: [{ prepare_world: 123 }, undefined, undefined, undefined] } }));
    const text = renderTrials(r);
    expect(text).toMatch(/prepare_world\s*│ 123/);
    expect(text).not.toMatch(/no `phases` event/);
  });

  it("says which pair of scaling runs was judged when there are several", () => {
    const pair = (wall2: number) => ({ u1: run({ wallMs: 4000 }), u2: run({ concurrency: 2, wallMs: wall2 }) });
    expect(renderScaling(buildReport(measurements()))).not.toContain("pairs of runs");
    const text = renderScaling(buildReport(measurements({ uncached: [pair(2500), pair(2000), pair(3200)] })));
    expect(text).toContain(
      "1 -> 2 workers, independent trials: 1.60x (target ≥ 1.7x) MISS (the median of 3 pairs of runs: 1.60, 2.00, 1.25; the table shows that pair)",
    );
  });

  it("shows how far the floor alone scales, with every pair when there are several", () => {
    expect(renderScaling(buildReport(measurements()))).toContain(
      "1 -> 2 at a time for the floor alone (world start + true + close, 10 worlds a run): 1.70x (what the sandbox itself allows",
    );
    const pair = (two: number) => ({ worlds: 10, one_per_s: 10, two_per_s: two });
    const text = renderScaling(buildReport(measurements({ floorScaling: [pair(16), pair(18), pair(15)] })));
    expect(text).toContain("10 worlds a run): 1.60x (median of 1.60, 1.80, 1.50)");
  });

  it("says yes or no for the cache, with the differences", () => {
    expect(renderCache(buildReport(measurements()))).toMatch(/^records equal with and without cache: yes \(4 trials/);
    const no = measurements({ cache: { trials: 4, equal: false, differences: ["x: misses: 0 -> 1"], difference_count: 3 } });
    const text = renderCache(buildReport(no));
    expect(text).toMatch(/^records equal with and without cache: no \(3 differences\)/);
    expect(text).toContain("  x: misses: 0 -> 1");
    expect(text).toContain("... 2 more");
  });

  it("shows each timed default run, the median judged, and whether the runs' records agree", () => {
    expect(renderDefaultRuns(buildReport(measurements()))).toMatch(/^Default npm run eval: not timed \(npm run bench -- --default-runs 3/);
    const defaultRuns = {
      runs: [
        {
          wall_s: 150.2,
          busy_cpu_s: 290,
          busy_cores: 1.93,
          trials: 6758,
          harness_errors: 0,
          cache: { worlds_built: 588, replays_run: 307, answers_asked: 2571 },
        },
        { wall_s: 140.4, busy_cpu_s: 275, busy_cores: 1.96, trials: 6758, harness_errors: 1, cache: null },
      ],
      median_wall_s: 150.2,
      records_equal: false,
      difference_count: 1,
      differences: ['run 2: x: outcome: "passed" -> "harness_error"'],
      uncached: null,
    };
    const text = renderDefaultRuns(buildReport(measurements({ defaultRuns })));
    expect(text).toMatch(/│ 1\s*│ 6758\s*│ 0\s*│ 150\.2\s*│ 290\s*│ 1\.93\s*│ 588\s*│ 307\s*│ 2571/);
    expect(text).toMatch(/│ 2\s*│ 6758\s*│ 1\s*│ 140\.4\s*│ 275\s*│ 1\.96\s*│ –\s*│ –\s*│ –/);
    expect(text).toContain("median wall: 150.2 s; per trial: 22.2 ms (target ≤ 26.6 ms) PASS");
    expect(text).toContain("records equal in every run: no (1 differences)");
    expect(text).toContain('  run 2: x: outcome: "passed" -> "harness_error"');
    expect(text).toContain("with --no-cache (every trial in its own world): not run");
    const uncached = { run: { ...defaultRuns.runs[0]!, wall_s: 2790.5 }, records_equal: false, difference_count: 2, differences: ["y: misses: 0 -> 1"] };
    const withUncached = renderDefaultRuns(buildReport(measurements({ defaultRuns: { ...defaultRuns, uncached } })));
    expect(withUncached).toContain(
      "with --no-cache (every trial in its own world): 2790.5 s, 6758 trials, 0 harness errors; records equal to run 1: no (2 differences)\n  y: misses: 0 -> 1",
    );
    expect(withUncached).toContain("  y: misses: 0 -> 1\n  ... 1 more");
    expect(renderTargets(buildReport(measurements({ defaultRuns })))).toMatch(
      /default npm run eval, median wall per trial.*│ 22\.2 ms\s*│ ≤ 26\.6 ms\s*│ PASS/,
    );
  });

  it("lists every target with its status", () => {
    const text = renderTargets(buildReport(measurements()));
    expect(text).toMatch(/per-trial overhead.*│ 3\.00x\s*│ ≤ 3x\s*│ PASS/);
    expect(text).toMatch(/per-call snapshot.*│ 400\.0x\s*│ ≤ 2x\s*│ MISS/);
    expect(text).toMatch(/runner peak RSS.*│ 300 MB\s*│ ≤ 400 MB\s*│ PASS/);
    expect(text).toMatch(/policy gates p50.*│ 32.0 µs\s*│ ≤ 20 µs\s*│ MISS/);
  });

  it("renders a whole report, the third-party hooks named as such", () => {
    const r = buildReport(
      measurements({
        realWorld: [
          { gate: "pi-permission-gate", kind: "in-process", calls: 3, p50_ms: 0.01, max_ms: 0.1, vs_pi_permission_gate: 1 },
          { gate: "cc-safety-net", kind: "third-party hook", calls: 3, p50_ms: 100, max_ms: 120, vs_pi_permission_gate: 10000 },
        ],
      }),
    );
    const text = renderReport(r);
    expect(text).toContain("third-party hook (a process per call)");
    expect(text).toContain("explain --corpus: not run");
    expect(text).toContain("Targets:");
  });
});

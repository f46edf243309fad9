/** The terminal text of one bench run, rendered from its report (so the text and reports/bench.json never disagree). */
import Table from "cli-table3";
import { renderCorpusSpeed } from "./corpus-speed.ts";
import { PHASES } from "./phases.ts";
import type { BenchReport } from "./report.ts";
import { formatJudged, formatTarget, type Judged } from "./targets.ts";

const table = (head: string[]) => new Table({ head, style: { head: [], border: [] } });
const num = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? "–" : x.toFixed(digits));
const times = (x: number | null, digits = 2) => (x === null ? "–" : `${x.toFixed(digits)}x`);

/** Each target's label and the decimals its value is shown with. */
const TARGET_ROWS: Record<keyof BenchReport["targets"], { label: string; digits: number }> = {
  overhead_ratio: { label: "per-trial overhead: median trial / floor", digits: 2 },
  scaling_1_to_2: { label: "scaling 1 -> 2 workers (trials/s)", digits: 2 },
  runner_peak_rss_mb: { label: "runner peak RSS, 2 workers", digits: 0 },
  snapshot_100k_over_100: { label: "per-call snapshot, 100k files / 100 files", digits: 1 },
  policy_gate_p50_us: { label: "policy gates p50 (slowest configuration)", digits: 1 },
  shell_ast_p50_us: { label: "shell-ast p50 (its corpus)", digits: 1 },
  shell_ast_p99_us: { label: "shell-ast p99 (its corpus)", digits: 1 },
  default_run_ms_per_trial: { label: "default npm run eval, median wall per trial", digits: 1 },
  store_warm_wall_s: { label: "default run again, nothing changed (store)", digits: 1 },
  store_one_gate_wall_s: { label: "default run after one gate changed (store)", digits: 1 },
  store_cold_per_trial_ratio: { label: "cold run with the store, per trial / without", digits: 2 },
  corpus_decisions_per_s: { label: "corpus mode, decisions/s (slowest of shell-ast, layered)", digits: 0 },
};

function judgedValue(j: Judged, digits: number): string {
  if (j.value === null) return "–";
  return j.unit === "x" ? times(j.value, digits) : `${j.value.toFixed(digits)} ${j.unit}`;
}

export function renderTargets(r: BenchReport): string {
  const t = table(["target", "measured", "target", "status"]);
  for (const [key, { label, digits }] of Object.entries(TARGET_ROWS) as [keyof BenchReport["targets"], { label: string; digits: number }][]) {
    const j = r.targets[key];
    t.push([label, judgedValue(j, digits), formatTarget(j), j.status]);
  }
  return `Targets:\n${t.toString()}`;
}

export function renderFloor(r: BenchReport): string {
  const f = r.floor;
  return (
    `Floor: world start + bash \`true\` through the helper + close, median of ${f.samples}: ${num(f.median_ms)} ms ` +
    `(start ${num(f.start_ms)}, call ${num(f.exec_true_ms, 2)}, close ${num(f.close_ms)})`
  );
}

export function renderTrials(r: BenchReport): string {
  const t = r.trials;
  const cells = `${t.subset.tasks.join(", ")} x agents ${t.subset.agents} x gates ${t.subset.gates.join(", ")} x approvers ${t.subset.approvers.join(", ")}`;
  const p = table(["phase", "median ms"]);
  for (const phase of PHASES) p.push([phase, num(t.phases_median_ms[phase], 0)]);
  p.push(["trial (duration_ms)", num(t.median_trial_ms, 0)]);
  const note = t.phases_from === "absent" ? "\n(this runner logs no `phases` event: per-phase times are –, the trial's duration_ms stands alone)" : "";
  const errors = t.harness_errors ? `, ${t.harness_errors} harness errors` : "";
  return (
    `Per-trial cost, ${t.trials} trials at concurrency 1 (${cells}${errors}):\n${p.toString()}${note}\n` +
    `overhead: median trial ${num(t.median_trial_ms, 0)} ms / floor ${num(r.floor.median_ms)} ms = ${formatJudged(r.targets.overhead_ratio)}`
  );
}

export function renderScaling(r: BenchReport): string {
  const t = table(["trials", "workers", "trials", "wall s", "trials/s", "median trial ms", "busy cores", "runner cores"]);
  const rows = [
    ["independent (no cache)", r.scaling.concurrency_1],
    ["independent (no cache)", r.scaling.concurrency_2],
    ["shared states (cache)", r.scaling.with_cache.concurrency_1],
    ["shared states (cache)", r.scaling.with_cache.concurrency_2],
  ] as const;
  for (const [kind, c] of rows) {
    t.push([
      kind,
      String(c.concurrency),
      String(c.trials),
      num(c.wall_s, 2),
      num(c.trials_per_s, 2),
      num(c.median_trial_ms, 0),
      num(c.busy_cores, 2),
      num(c.runner_cores, 2),
    ]);
  }
  return (
    `Scaling:\n${t.toString()}\n1 -> 2 workers, independent trials: ${formatJudged(r.targets.scaling_1_to_2)}` +
    (r.scaling.pair_ratios.length > 1
      ? ` (the median of ${r.scaling.pair_ratios.length} pairs of runs: ${r.scaling.pair_ratios.map((x) => num(x, 2)).join(", ")}; the table shows that pair)`
      : "") +
    `\n1 -> 2 workers with shared states: ${num(r.scaling.with_cache.ratio, 2)}x (trials wait for a state another is making: not a measure of the runner)` +
    `\n1 -> 2 at a time for the floor alone (world start + true + close, ${num(r.scaling.floor.worlds, 0)} worlds a run): ${num(r.scaling.floor.ratio, 2)}x` +
    (r.scaling.floor.pair_ratios.length > 1 ? ` (median of ${r.scaling.floor.pair_ratios.map((x) => num(x, 2)).join(", ")})` : "") +
    " (what the sandbox itself allows on this machine, with no runner)"
  );
}

export function renderRss(r: BenchReport): string {
  return (
    `Runner RSS during the 2-worker run (sampled every ${r.rss.sample_every_ms} ms): peak ${formatJudged(r.targets.runner_peak_rss_mb, 0)}` +
    ` (at its start: ${num(r.rss.at_start_mb, 0)} MB)`
  );
}

export function renderCache(r: BenchReport): string {
  const c = r.cache;
  if (c.records_equal) return `records equal with and without cache: yes (${c.trials} trials at 2 workers, timings and run id aside)`;
  return `records equal with and without cache: ${notEqual(c.difference_count, c.differences)}`;
}

/** "no (N differences)" and the differences kept, one per indented line, with how many more there were. */
function notEqual(count: number, shown: readonly string[]): string {
  const more = count > shown.length ? `\n  ... ${count - shown.length} more` : "";
  return `no (${count} differences)\n${shown.map((d) => `  ${d}`).join("\n")}${more}`;
}

export function renderWorldSize(r: BenchReport): string {
  const w = r.world_size;
  const t = table(["files", "entries", "build ms", "full snapshot ms", "per-call snapshot ms", "samples"]);
  for (const s of w.sizes) {
    t.push([
      s.files.toLocaleString("en-US"),
      s.entries.toLocaleString("en-US"),
      num(s.build_ms, 0),
      num(s.full_snapshot_ms, 0),
      num(s.per_call_snapshot_ms),
      String(s.samples),
    ]);
  }
  return (
    `Snapshot after a one-file change, by world size (trial dirs under ${w.world_dir}):\n${t.toString()}\n` +
    `100,000 files / 100 files: ${formatJudged(r.targets.snapshot_100k_over_100, 1)}`
  );
}

export function renderGateLatency(r: BenchReport): string {
  const execTrueMs = r.sandbox_costs.exec_true_ms;
  const t = table(["gate configuration", "calls", "p50 µs", "p99 µs", "target", "status", "p50 / sandboxed exec"]);
  for (const row of r.gates.in_process) {
    const target = [`p50 ${formatTarget(row.target.p50)}`, ...(row.target.p99 ? [`p99 ${formatTarget(row.target.p99)}`] : [])].join(", ");
    const vsExec = row.p50_us && execTrueMs ? `1 : ${Math.round((execTrueMs * 1000) / row.p50_us).toLocaleString("en-US")}` : "–";
    t.push([row.gate, String(row.calls), num(row.p50_us), num(row.p99_us), target, row.status, vsExec]);
  }
  const skipped = r.gates.skipped.length ? `\nNot in this table: ${r.gates.skipped.map((s) => `${s.gate} (${s.reason})`).join("; ")}` : "";
  const s = r.gates.shell_ast_corpus;
  const shell =
    "error" in s
      ? `shell-ast: not benchmarked (${s.error})`
      : `shell-ast analysis per command over its corpus (${s.n} commands): p50 ${formatJudged(r.targets.shell_ast_p50_us, 1)}, p99 ${formatJudged(r.targets.shell_ast_p99_us, 1)}`;
  return `Gate decision latency over the tool calls of the built-in tasks (in-memory world):\n${t.toString()}${skipped}\n\n${shell}`;
}

export function renderSandboxCosts(r: BenchReport): string {
  const c = r.sandbox_costs;
  const t = table(["sandboxed operation", "median ms"]);
  t.push(
    ["world start (bwrap + helper)", num(c.world_start_ms)],
    ["bash `true` through the helper", num(c.exec_true_ms, 2)],
    ["read through the helper", num(c.read_ms, 2)],
    ["one-shot bwrap (setup / hidden test)", num(c.one_shot_bwrap_ms)],
    ["first snapshot (starts the measurer)", num(c.first_snapshot_ms)],
  );
  return `Sandbox costs (${c.samples} samples each):\n${t.toString()}`;
}

export function renderRealWorld(r: BenchReport): string {
  const rows = r.gates.real_world;
  const t = table(["gate on a real world", "kind", "bash calls", "p50 ms", "max ms", "p50 / pi-permission-gate"]);
  for (const g of rows) {
    const kind = g.kind === "third-party hook" ? "third-party hook (a process per call)" : g.kind;
    const vs = g.vs_pi_permission_gate === null ? "–" : `${g.vs_pi_permission_gate.toLocaleString("en-US")} x`;
    t.push([g.gate, kind, String(g.calls), num(g.p50_ms, 3), num(g.max_ms, 2), vs]);
  }
  const l = r.gates.sandbox_layer;
  return (
    `Bash decisions on a real world (${rows[0]?.calls ?? 0} commands from the tasks):\n${t.toString()}\n\n` +
    `sandbox layer: one bash call ${num(l.strict_ms, 2)} ms under the strict profile vs ${num(l.default_ms, 2)} ms under the default one ` +
    `(overhead ${num(l.overhead_ms, 2)} ms, ratio ${num(l.ratio, 2)})`
  );
}

export function renderCorpus(r: BenchReport): string {
  const c = r.gates.corpus;
  if (!c) return "explain --corpus: not run (--quick)";
  const t = table([`gate (${c.file})`, "recall", "pass", "p50 ms", "p99 ms", "decisions/s"]);
  for (const g of c.rows)
    t.push([g.gate, `${g.caught}/${g.danger}`, `${g.passed}/${g.benign}`, g.p50_ms.toFixed(3), g.p99_ms.toFixed(2), String(g.decisions_per_s)]);
  return `explain --corpus (${c.entries} entries, ${c.worlds} worlds, ${(c.wall_ms / 1000).toFixed(1)} s wall):\n${t.toString()}`;
}

export function renderDefaultRuns(r: BenchReport): string {
  const d = r.default_run;
  if (!d) return "Default npm run eval: not timed (npm run bench -- --default-runs 3 times it)";
  const t = table(["run", "trials", "harness errors", "wall s", "busy CPU s", "busy cores", "worlds built", "replays run", "gate questions asked"]);
  d.runs.forEach((run, i) => {
    t.push([
      String(i + 1),
      String(run.trials),
      String(run.harness_errors),
      num(run.wall_s),
      num(run.busy_cpu_s, 0),
      num(run.busy_cores, 2),
      run.cache ? String(run.cache.worlds_built ?? "–") : "–",
      run.cache ? String(run.cache.replays_run ?? "–") : "–",
      run.cache ? String(run.cache.answers_asked ?? "–") : "–",
    ]);
  });
  const equal =
    d.runs.length < 2
      ? "one run: nothing to compare"
      : d.records_equal
        ? `yes (${d.runs.length} runs, timings and run id aside)`
        : notEqual(d.difference_count, d.differences);
  const u = d.uncached;
  const uncached = !u
    ? "not run (--uncached-default-run runs it)"
    : `${num(u.run.wall_s)} s, ${u.run.trials} trials, ${u.run.harness_errors} harness errors; records equal to run 1: ` +
      (u.records_equal ? "yes (timings and run id aside)" : notEqual(u.difference_count, u.differences));
  return (
    `Default npm run eval, ${d.runs.length} runs one after another:\n${t.toString()}\n` +
    `median wall: ${num(d.median_wall_s)} s; per trial: ${formatJudged(r.targets.default_run_ms_per_trial, 1)}\nrecords equal in every run: ${equal}\n` +
    `with --no-cache (every trial in its own world): ${uncached}`
  );
}

export function renderStoreRuns(r: BenchReport): string {
  const s = r.store_runs;
  if (!s) return "Result store on the default run: not measured (npm run bench -- --store-runs measures it)";
  const t = table(["run", "trials", "ran", "served from the store", "wall s", "busy CPU s"]);
  for (const [name, run] of [
    ["cold (empty store)", s.cold],
    ["warm (nothing changed)", s.warm],
    [`one gate changed (${s.changed_gate})`, s.one_gate],
  ] as const)
    t.push([name, String(run.trials), num(run.ran, 0), num(run.served, 0), num(run.wall_s), num(run.busy_cpu_s, 0)]);
  const equal = (ok: boolean) => (ok ? "yes" : "NO");
  return (
    `Result store on the default run (one store, a copy of the repository):\n${t.toString()}\n` +
    `${s.changed_gate}'s trials in the matrix: ${s.changed_gate_trials}; records equal to the cold run's: warm ${equal(s.warm_records_equal)}, one gate changed ${equal(s.one_gate_records_equal)}` +
    (s.differences.length ? `\n${s.differences.join("\n")}` : "") +
    `\nwarm: ${formatJudged(r.targets.store_warm_wall_s, 1)}; one gate changed: ${formatJudged(r.targets.store_one_gate_wall_s, 1)}; cold per trial over the timed default runs': ${formatJudged(r.targets.store_cold_per_trial_ratio, 2)}`
  );
}

export function renderReport(r: BenchReport): string {
  const m = r.machine;
  const head =
    `gatebench bench (${r.mode}): ${m.cpus} cpus, node ${m.node}, ` +
    `load ${num(m.load_avg_1m_start, 2)} at start and ${num(m.load_avg_1m_end, 2)} at the end, ${num(r.wall_s, 0)} s`;
  return [
    head,
    renderFloor(r),
    renderTrials(r),
    renderScaling(r),
    renderRss(r),
    renderCache(r),
    renderWorldSize(r),
    renderGateLatency(r),
    renderSandboxCosts(r),
    renderRealWorld(r),
    renderCorpus(r),
    renderCorpusSpeed(r.gates.corpus_speed),
    renderDefaultRuns(r),
    renderStoreRuns(r),
    renderTargets(r),
  ].join("\n\n");
}

/**
 * npm run bench: decision latency of every gate configuration over the tool calls of the
 * built-in tasks (tinybench, in-process, on an in-memory world so paths resolve without a
 * sandbox round trip), shell-ast per command, and the cost of one sandboxed tool call.
 * Ratios are computed inside this one run; absolute figures move with machine load.
 */
import Table from "cli-table3";
import { Bench } from "tinybench";
import { listGateConfigNames, loadGateConfig } from "../gates/config.ts";
import { decideStack } from "../gates/stack.ts";
import type { GateContext, ProposedCall } from "../gates/types.ts";
import { TOOL_PERMISSIONS } from "../kernel/tools.ts";
import { listTaskIds, loadTasks } from "../harness/task/load.ts";
import type { Step } from "../harness/task/schema.ts";
import { createWorld } from "../harness/world/world.ts";
import { median } from "./bench/stats.ts";
import { measureWorldCosts } from "./bench/world-costs.ts";
import { buildStrictProfile } from "../kernel/sandbox-profile.ts";
import { createFakeEnv } from "./fixtures/fake-env.ts";

function flatten(steps: readonly Step[]): Step[] {
  return steps.flatMap((s) => [s, ...flatten(s.on_block ?? []), ...flatten(s.on_error ?? [])]);
}

function corpus(): ProposedCall[] {
  const calls: ProposedCall[] = [];
  for (const t of loadTasks(listTaskIds())) {
    for (const s of flatten([...t.reference.steps, ...t.personas.flatMap((p) => p.steps)])) {
      if (!s.tool) continue;
      const permission = TOOL_PERMISSIONS[s.tool];
      calls.push({ id: `c${calls.length}`, tool: s.tool, args: s.args ?? {}, ...(permission ? { permission } : {}) });
    }
  }
  return calls;
}

const us = (ms: number | undefined) => (ms === undefined ? "–" : (ms * 1000).toFixed(1));

async function main(): Promise<void> {
  const calls = corpus();
  const env = createFakeEnv({
    cwd: "/workspace",
    home: "/home/user",
    dirs: ["/workspace/src", "/home/user/Documents", "/tmp/cache-a"],
    files: { "/workspace/README.md": "# readme\n", "/workspace/.env": "A=1\n", "/home/user/.bashrc": "alias ll='ls -l'\n" },
  });
  const ctx: GateContext = { env, signal: new AbortController().signal, runId: "bench", ui: { hasUI: true, confirm: async () => true } };

  const world = await measureWorldCosts(15);
  const bench = new Bench({ time: 300, warmup: true });
  const skipped: string[] = [];
  for (const name of listGateConfigNames()) {
    let config;
    try {
      config = loadGateConfig(name);
    } catch (e) {
      skipped.push(`${name} (${(e as Error).message})`);
      continue;
    }
    if (config.layers.length === 0) continue;
    if (config.layers.some((l) => l.name.startsWith("claude-hook") || l.name.startsWith("cc-safety-net"))) {
      skipped.push(`${name} (its hook runs in a sandbox per call: measured below on a real world)`);
      continue;
    }
    let i = 0;
    bench.add(name, async () => {
      await decideStack(config.layers, calls[i++ % calls.length]!, ctx);
    });
  }
  await bench.run();

  const table = new Table({ head: ["gate configuration", "calls", "p50 µs", "p99 µs", "p50 / sandboxed exec"], style: { head: [], border: [] } });
  for (const task of bench.tasks) {
    const r = task.result as { latency?: { p50: number; p99: number } };
    table.push([
      task.name,
      String(calls.length),
      us(r.latency?.p50),
      us(r.latency?.p99),
      r.latency ? `1 : ${Math.round(world.execTrueMs / r.latency.p50).toLocaleString("en-US")}` : "–",
    ]);
  }
  process.stdout.write(`Gate decision latency over ${calls.length} tool calls from the built-in tasks (in-memory world):\n${table.toString()}\n`);

  try {
    const { benchShellAst } = (await import("./bench/shell-ast.ts")) as { benchShellAst: () => Promise<{ p50_us: number; p99_us: number; n: number }> };
    const s = await benchShellAst();
    process.stdout.write(`\nshell-ast analysis per command over its corpus (${s.n} commands): p50 ${s.p50_us.toFixed(1)} µs, p99 ${s.p99_us.toFixed(1)} µs\n`);
  } catch (e) {
    process.stdout.write(`\nshell-ast: not benchmarked (${(e as Error).message})\n`);
  }

  const w = new Table({ head: ["sandboxed operation", "median ms"], style: { head: [], border: [] } });
  w.push(
    ["world start (bwrap + helper)", world.startMs.toFixed(1)],
    ["bash `true` through the helper", world.execTrueMs.toFixed(2)],
    ["read through the helper", world.readMs.toFixed(2)],
    ["one-shot bwrap (setup / hidden test)", world.oneShotMs.toFixed(1)],
  );
  w.push(["first snapshot (starts the measurer)", world.firstSnapshotMs.toFixed(1)]);
  process.stdout.write(`\nSandbox costs (15 samples each):\n${w.toString()}\n`);
  if (skipped.length) process.stdout.write(`\nNot in the in-process table: ${skipped.join("; ")}\n`);

  await benchInRealWorld(calls);
  await benchCorpus();
}

/** `explain --corpus` over the shipped corpus: decisions per second of gate time, per in-process gate, on the tasks' worlds. */
async function benchCorpus(): Promise<void> {
  const { readCorpus, runCorpus } = await import("../harness/explain/corpus.ts");
  const names = ["pi-permission-gate", "path-policy", "shell-ast", "layered", "permission-levels", "risk-classifier", "pi-protected-paths"];
  const gates = names.map((g) => loadGateConfig(g));
  const r = await runCorpus(gates, readCorpus("corpora/incidents.yaml"));
  const t = new Table({ head: ["gate (corpora/incidents.yaml)", "recall", "pass", "p50 ms", "p99 ms", "decisions/s"], style: { head: [], border: [] } });
  for (const g of r.gates) {
    t.push([
      g.gate,
      `${g.caught}/${g.danger}`,
      `${g.passed}/${g.benign}`,
      g.latency_ms.p50.toFixed(3),
      g.latency_ms.p99.toFixed(2),
      String(g.decisions_per_sec),
    ]);
  }
  process.stdout.write(`\nexplain --corpus (${r.entries} entries, ${r.worlds.length} worlds, ${(r.wall_ms / 1000).toFixed(1)} s wall):\n${t.toString()}\n`);
}

/**
 * Gates that must see the world as the agent does, measured on a real sandboxed world: bash
 * decisions of pi-permission-gate, shell-ast (globs and paths resolved inside the sandbox) and
 * cc-safety-net (its hook runs in a read-only sandbox), and the per-call cost of the strict
 * OS profile (the `sandbox` layer) against the default one.
 */
async function benchInRealWorld(calls: ProposedCall[]): Promise<void> {
  const bash = calls.filter((c) => c.tool === "bash").slice(0, 24);
  const table = new Table({ head: ["gate on a real world", "bash calls", "p50 ms", "max ms", "p50 / pi-permission-gate"], style: { head: [], border: [] } });
  const world = await createWorld();
  let base = NaN;
  try {
    await world.exec("mkdir -p src build logs && echo x > src/a.ts && echo y > logs/a.log");
    const ctx: GateContext = { env: world.env, signal: new AbortController().signal, runId: "bench", ui: { hasUI: true, confirm: async () => true } };
    for (const name of ["pi-permission-gate", "shell-ast", "cc-safety-net"]) {
      const layers = loadGateConfig(name).layers;
      const xs: number[] = [];
      for (const call of bash) {
        const t0 = performance.now();
        await decideStack(layers, call, ctx);
        xs.push(performance.now() - t0);
      }
      const p50 = median(xs);
      if (name === "pi-permission-gate") base = p50;
      table.push([name, String(xs.length), p50.toFixed(3), Math.max(...xs).toFixed(2), `${Math.round(p50 / base).toLocaleString("en-US")} x`]);
    }
  } finally {
    await world.close();
  }
  process.stdout.write(`\nBash decisions on a real world (${bash.length} commands from the tasks):\n${table.toString()}\n`);

  const perCall = async (strict: boolean): Promise<number> => {
    const w = await createWorld(strict ? { profile: buildStrictProfile({}) } : {});
    try {
      await w.exec("true");
      const xs: number[] = [];
      for (let i = 0; i < 15; i++) {
        const t0 = performance.now();
        await w.exec("ls ~ >/dev/null; true");
        xs.push(performance.now() - t0);
      }
      return median(xs);
    } finally {
      await w.close();
    }
  };
  const plain = await perCall(false);
  const strict = await perCall(true);
  process.stdout.write(
    `\nsandbox layer: one bash call ${strict.toFixed(2)} ms under the strict profile vs ${plain.toFixed(2)} ms under the default one (overhead ${(strict - plain).toFixed(2)} ms, ratio ${(strict / plain).toFixed(2)})\n`,
  );
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${(e as Error).message}\n`);
  process.exit(1);
});

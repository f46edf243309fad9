/**
 * Decision latency of every in-process gate configuration over the tool calls of the built-in
 * tasks (tinybench, on an in-memory world so paths resolve without a sandbox round trip).
 * Configurations whose hook runs in a sandbox per call (third-party hooks) are listed as
 * skipped here and measured on a real world (real-world-gates.ts).
 */
import { Bench } from "tinybench";
import { listGateConfigNames, loadGateConfig } from "../../gates/config.ts";
import { decideStack } from "../../gates/stack.ts";
import type { GateContext, ProposedCall } from "../../gates/types.ts";
import { listTaskIds, loadTasks } from "../../harness/model/task/load.ts";
import type { Step } from "../../harness/model/task/schema.ts";
import { TOOL_PERMISSIONS } from "../../kernel/tools.ts";
import { createFakeEnv } from "../fixtures/fake-env.ts";
import { round } from "./stats.ts";
import { type GateClass, gateClass } from "./targets.ts";

function flatten(steps: readonly Step[]): Step[] {
  return steps.flatMap((s) => [s, ...flatten(s.on_block ?? []), ...flatten(s.on_error ?? [])]);
}

/** Every tool call of every built-in task's reference and personas, in task order. */
export function taskCalls(): ProposedCall[] {
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

export interface GateLatencyRow {
  gate: string;
  class: GateClass;
  calls: number;
  p50_us: number | null;
  p99_us: number | null;
}

export interface GateLatency {
  rows: GateLatencyRow[];
  /** Configurations not in the table, each with the reason. */
  skipped: { gate: string; reason: string }[];
}

/** A layer whose decision starts a process per call (a third-party hook). */
const isHookLayer = (name: string) => name.startsWith("claude-hook") || name.startsWith("cc-safety-net");

export async function benchGateLatency(calls: readonly ProposedCall[], opts: { timeMs: number }): Promise<GateLatency> {
  const env = createFakeEnv({
    cwd: "/workspace",
    home: "/home/user",
    dirs: ["/workspace/src", "/home/user/Documents", "/tmp/cache-a"],
    files: { "/workspace/README.md": "# readme\n", "/workspace/.env": "A=1\n", "/home/user/.bashrc": "alias ll='ls -l'\n" },
  });
  const ctx: GateContext = { env, signal: new AbortController().signal, runId: "bench", ui: { hasUI: true, confirm: async () => true } };
  const bench = new Bench({ time: opts.timeMs, warmup: true });
  const skipped: GateLatency["skipped"] = [];
  const classes = new Map<string, GateClass>();
  for (const name of listGateConfigNames()) {
    let config: ReturnType<typeof loadGateConfig>;
    try {
      config = loadGateConfig(name);
    } catch (e) {
      skipped.push({ gate: name, reason: (e as Error).message });
      continue;
    }
    if (config.layers.length === 0) continue;
    if (config.layers.some((l) => isHookLayer(l.name))) {
      skipped.push({ gate: name, reason: "third-party hook, a sandboxed process per call: measured on a real world" });
      continue;
    }
    classes.set(name, gateClass(config.layers.map((l) => l.name)));
    let i = 0;
    bench.add(name, async () => {
      await decideStack(config.layers, calls[i++ % calls.length]!, ctx);
    });
  }
  await bench.run();
  const rows = bench.tasks.map((task): GateLatencyRow => {
    const r = task.result as { latency?: { p50?: number; p99?: number } };
    const us = (ms: number | undefined) => round(ms === undefined ? null : ms * 1000);
    return { gate: task.name, class: classes.get(task.name) ?? "policy", calls: calls.length, p50_us: us(r.latency?.p50), p99_us: us(r.latency?.p99) };
  });
  return { rows, skipped };
}

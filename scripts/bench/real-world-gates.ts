/**
 * Gates that must see the world as the agent does, measured on a real sandboxed world: bash
 * decisions of pi-permission-gate, shell-ast (globs and paths resolved inside the sandbox) and
 * cc-safety-net (a third-party hook: one read-only sandboxed process per call), and the
 * per-call cost of the strict OS profile (the `sandbox` layer) against the default one.
 */
import { loadGateConfig } from "../../gates/config.ts";
import { decideStack } from "../../gates/stack.ts";
import type { GateContext, ProposedCall } from "../../gates/types.ts";
import { createWorld } from "../../harness/sandbox/world/world.ts";
import { buildStrictProfile } from "../../kernel/sandbox-profile.ts";
import { median, ratio, round } from "./stats.ts";

export interface RealWorldGateRow {
  gate: string;
  /** "in-process", or "third-party hook" for a gate that starts a sandboxed process per call. */
  kind: "in-process" | "third-party hook";
  calls: number;
  p50_ms: number | null;
  max_ms: number | null;
  /** p50 over pi-permission-gate's p50. */
  vs_pi_permission_gate: number | null;
}

export interface SandboxLayerCost {
  default_ms: number | null;
  strict_ms: number | null;
  overhead_ms: number | null;
  ratio: number | null;
}

const GATES: readonly { gate: string; kind: RealWorldGateRow["kind"] }[] = [
  { gate: "pi-permission-gate", kind: "in-process" },
  { gate: "shell-ast", kind: "in-process" },
  { gate: "cc-safety-net", kind: "third-party hook" },
];

export async function benchRealWorldGates(calls: readonly ProposedCall[], maxCommands: number): Promise<RealWorldGateRow[]> {
  const bash = calls.filter((c) => c.tool === "bash").slice(0, maxCommands);
  const world = await createWorld();
  const rows: RealWorldGateRow[] = [];
  try {
    await world.exec("mkdir -p src build logs && echo x > src/a.ts && echo y > logs/a.log");
    const ctx: GateContext = { env: world.env, signal: new AbortController().signal, runId: "bench", ui: { hasUI: true, confirm: async () => true } };
    let base: number | null = null;
    for (const { gate, kind } of GATES) {
      const layers = loadGateConfig(gate).layers;
      const xs: number[] = [];
      for (const call of bash) {
        const t0 = performance.now();
        await decideStack(layers, call, ctx);
        xs.push(performance.now() - t0);
      }
      const p50 = xs.length ? median(xs) : null;
      if (gate === "pi-permission-gate") base = p50;
      rows.push({
        gate,
        kind,
        calls: xs.length,
        p50_ms: round(p50, 3),
        max_ms: round(xs.length ? Math.max(...xs) : null, 2),
        vs_pi_permission_gate: round(ratio(p50, base), 0),
      });
    }
  } finally {
    await world.close();
  }
  return rows;
}

/** One bash call under the strict profile against one under the default profile, median of `samples`. */
export async function benchSandboxLayer(samples: number): Promise<SandboxLayerCost> {
  const perCall = async (strict: boolean): Promise<number> => {
    const w = await createWorld(strict ? { profile: buildStrictProfile({}) } : {});
    try {
      await w.exec("true");
      const xs: number[] = [];
      for (let i = 0; i < samples; i++) {
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
  return { default_ms: round(plain, 2), strict_ms: round(strict, 2), overhead_ms: round(strict - plain, 2), ratio: round(ratio(strict, plain), 2) };
}

/** The evaluation matrix: which trials a run plans, and how --shard splits them. */
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import { planTrials } from "../../../../../harness/run/matrix/matrix.ts";
import { loadTasks } from "../../../../../harness/model/task/load.ts";

const tasks = loadTasks(["t7_cleanup_tmp", "t1_trailing_tilde_rm"]);
const gates = ["none", "pi-permission-gate", "sandbox"].map((g) => loadGateConfig(g));
const base = {
  runId: "r",
  tasks,
  gates,
  agents: [{ kind: "reference" as const }, { kind: "scripted" as const }],
  approvers: ["oracle-scope", "headless"] as ("oracle-scope" | "headless")[],
  trials: 2,
};

describe("planTrials", () => {
  it("runs gates that can never ask once per (task, agent, attempt), the rest once per approver", () => {
    const specs = planTrials(base);
    const pairs = tasks.reduce((n, t) => n + 1 + t.personas.length, 0);
    expect(specs.filter((s) => s.gate.name === "none").map((s) => s.approver)).toEqual(Array(pairs * 2).fill("-"));
    expect(specs.filter((s) => s.gate.name === "sandbox")).toHaveLength(pairs * 2);
    expect(specs.filter((s) => s.gate.name === "pi-permission-gate")).toHaveLength(pairs * 2 * 2);
    expect(new Set(specs.map((s) => s.trialId)).size).toBe(specs.length);
  });

  it("shards are disjoint and together cover the whole plan", () => {
    const all = planTrials(base).map((s) => s.trialId);
    const shards = [1, 2, 3].map((index) => planTrials({ ...base, shard: { index, count: 3 } }).map((s) => s.trialId));
    expect(shards.flat().sort()).toEqual([...all].sort());
    expect(new Set(shards.flat()).size).toBe(all.length);
    expect(shards.every((s) => s.length > 0)).toBe(true);
  });

  it("a real model runs --epochs times per cell, a scripted agent --trials times; epochs default to --trials", () => {
    const agents = [{ kind: "reference" as const }, { kind: "model" as const, id: "openai-compatible/m" }];
    const specs = planTrials({ ...base, tasks: tasks.slice(0, 1), gates: gates.slice(0, 1), agents, trials: 1, epochs: 3 });
    expect(specs.map((s) => s.trialId)).toEqual([
      "t7_cleanup_tmp.reference.none.-.1",
      "t7_cleanup_tmp.openai-compatible%2Fm.none.-.1",
      "t7_cleanup_tmp.openai-compatible%2Fm.none.-.2",
      "t7_cleanup_tmp.openai-compatible%2Fm.none.-.3",
    ]);
    expect(planTrials({ ...base, tasks: tasks.slice(0, 1), gates: gates.slice(0, 1), agents, trials: 2 })).toHaveLength(4);
  });
});

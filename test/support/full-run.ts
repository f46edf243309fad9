/**
 * A synthetic run the size of the full default one, for the report's tests: every built-in gate
 * configuration (gates/configs/*.yaml, 17) under the four default users (`none` with nobody to
 * ask), ~80 tasks, each with a harmful persona, a benign persona and the reference. Deterministic.
 *
 * The numbers are made to be hard to draw: six gates never ask anyone (their trials the same
 * under every user), several gates share the same numbers exactly (the `trust-*` family, the
 * permission-gate pair), and many sit at 0% or 100%, so a chart that labelled its dots next to
 * them would pile labels on one another.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { emptyTrialRecord, type TrialRecord } from "../../harness/model/record/record.ts";
import type { TrialEventLike } from "../../harness/run/report/views/html.ts";

const REPO = join(import.meta.dirname, "../..");

/** The built-in configurations the default run measures: every one but an agent product's own settings (run only with that product). */
export const BUILT_IN_GATES: string[] = readdirSync(join(REPO, "gates/configs"))
  .filter((f) => f.endsWith(".yaml") && !/^product:/m.test(readFileSync(join(REPO, "gates/configs", f), "utf8")))
  .map((f) => f.replace(/\.yaml$/, ""))
  .sort();

export const DEFAULT_USERS = ["fatigued", "headless", "rubber-stamp", "oracle-scope"] as const;

/** The gates of the synthetic run that never put a question to anyone. */
export const NEVER_ASKING = ["cc-safety-net", "cc-safety-net-paranoid", "cc-safety-net-strict", "sandbox", "pi-default-trust", "pi-protected-paths"];

/** What a gate stops of a harmful agent on its own (`alone`) and at most (`most`, every answer no). */
const STRENGTH: Record<string, { alone: number; most: number; asks: number }> = {
  "cc-safety-net": { alone: 0.39, most: 0.39, asks: 0 },
  "cc-safety-net-paranoid": { alone: 0.74, most: 0.74, asks: 0 },
  "cc-safety-net-strict": { alone: 0.52, most: 0.52, asks: 0 },
  sandbox: { alone: 0.35, most: 0.35, asks: 0 },
  "pi-default-trust": { alone: 0, most: 0, asks: 0 },
  "pi-protected-paths": { alone: 0, most: 0, asks: 0 },
  layered: { alone: 0.17, most: 1, asks: 1.2 },
  "path-policy": { alone: 0, most: 0, asks: 0.54 },
  "permission-levels": { alone: 0, most: 1, asks: 2.08 },
  "risk-classifier": { alone: 0, most: 1, asks: 2.08 },
  "pi-extension-permission-gate": { alone: 0, most: 0.13, asks: 0.26 },
  "pi-permission-gate": { alone: 0, most: 0.13, asks: 0.26 },
  "shell-ast": { alone: 0.13, most: 0.83, asks: 0.56 },
  "trust-always": { alone: 0, most: 0.13, asks: 0.26 },
  "trust-ask": { alone: 0, most: 0.13, asks: 0.36 },
  "trust-never": { alone: 0, most: 0.13, asks: 0.26 },
};

/** A number in [0, 1) from a string, the same every time. */
function unit(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return ((h >>> 0) % 100000) / 100000;
}

const AGENTS = [
  { agent: "scripted:careless", harmful: true },
  { agent: "scripted:tidy", harmful: false },
  { agent: "reference", harmful: false },
];

export interface SyntheticRun {
  records: TrialRecord[];
  events: Map<string, TrialEventLike[]>;
}

export function syntheticFullRun(opts: { tasks?: number; runId?: string; gates?: readonly string[] } = {}): SyntheticRun {
  const runId = opts.runId ?? "synthetic-full";
  const gates = opts.gates ?? BUILT_IN_GATES;
  const records: TrialRecord[] = [];
  const events = new Map<string, TrialEventLike[]>();
  const categories = ["deletion", "secrets", "git", "config", "append"];
  for (let t = 0; t < (opts.tasks ?? 80); t++) {
    const task = `t${String(t + 1).padStart(2, "0")}_synthetic`;
    const category = categories[t % categories.length]!;
    for (const gate of gates) {
      const s = STRENGTH[gate] ?? { alone: 0, most: 0, asks: 0 };
      const never = gate === "none" || NEVER_ASKING.includes(gate);
      const users: string[] = gate === "none" ? ["-"] : [...DEFAULT_USERS];
      for (const approver of users) {
        for (const { agent, harmful } of AGENTS) {
          // a gate that never asks decides the same whoever would answer: the coin ignores the user
          const coin = unit(`${task}/${agent}/${gate}/${never ? "" : approver}`);
          const asks = never ? 0 : Math.round(s.asks * (0.5 + coin));
          const stops =
            approver === "headless" ? s.most : approver === "rubber-stamp" ? s.alone : approver === "fatigued" ? (s.alone + s.most) / 2 : Math.min(1, s.most);
          const harmed = harmful && gate !== "none" ? coin >= stops : harmful;
          const blocked = harmful && !harmed ? 1 : 0;
          const falseBlock = !harmful && !never && approver === "headless" && coin < 0.3 ? 1 : 0;
          const passed = harmful ? true : falseBlock === 0;
          const trial_id = `${task}.${agent}.${gate}.${approver}.1`;
          const denied = approver === "headless" || approver === "rubber-stamp" ? 0 : Math.min(asks, blocked);
          const failed = approver === "headless" ? asks : 0;
          records.push({
            ...emptyTrialRecord({ run_id: runId, trial_id, task, category, agent, agent_harmful: harmful, gate, approver, attempt: 1 }),
            outcome: passed ? "passed" : "failed",
            passed,
            harmed,
            wrongful_deletions: harmed ? 2 : 0,
            bytes_lost: harmed ? 4096 : 0,
            wrongful_paths: harmed ? [`/workspace/${task}/data.db`] : [],
            tool_calls: 3,
            blocked: blocked + falseBlock,
            caught: blocked,
            false_blocks: falseBlock,
            misses: harmed ? 1 : 0,
            confirmations: asks,
            approved: asks - denied - failed,
            denied,
            failed_closed: failed,
            turns: 3 + blocked,
            retry_turns: blocked,
            tokens_in: 1200 + 40 * asks,
            tokens_out: 90,
            token_source: "estimated:o200k_base",
            cost_usd: 0.0049,
            duration_ms: 40 + Math.round(unit(trial_id) * 400),
            gate_ms: never ? 0 : 1.5,
          });
          if (t < 3)
            events.set(trial_id, [
              { t: 1, type: "world_ready", files: 12 },
              { t: 2, type: "tool_requested", id: "call_1", tool: "bash", summary: `bash: rm -rf /workspace/${task}/cache`, verdict: "allowed", layers: [] },
              { t: 3, type: "tool_executed", id: "call_1", outcome: "ok", changes: harmed ? 2 : 1, wrongful: harmed ? 2 : 0 },
              { t: 4, type: "world_built", calls_rerun: 1 },
              { t: 5, type: "hidden_test", exit: passed ? 0 : 1, timed_out: false, tampered: false, output: passed ? "ok" : "FAIL" },
              { t: 6, type: "phases", ms: { prepare_world: 120, snapshot_s0: 4, agent_loop: 800, final_snapshot: 6, hidden_test: 30, fold_record: 1 } },
            ]);
        }
      }
    }
  }
  return { records, events };
}

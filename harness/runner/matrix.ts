/**
 * The evaluation matrix: tasks x agents x gate configurations x approvers x attempts, run
 * with bounded concurrency, each finished trial appended to results.jsonl at once.
 */
import type { GateConfig } from "../../gates/config.ts";
import type { ApproverName } from "../approvers/types.ts";
import type { LoadedTask } from "../task/load.ts";
import type { AgentSpec } from "../agent/drivers/index.ts";
import { ROBUSTNESS_APPROVER } from "../report/robustness.ts";
import { agentsForTask, type AgentSelector } from "./agents.ts";
import type { RunOutput } from "./output.ts";
import type { TrialRecord } from "./record.ts";
import { agentLabel, runTrial, type TrialSpec } from "./trial.ts";
import { TrialQueue } from "./trial-queue.ts";
import { WorldStates, type CacheStats } from "./world-states.ts";
import { WorldTemplates } from "./world-templates.ts";

export interface MatrixOptions {
  runId: string;
  tasks: readonly LoadedTask[];
  gates: readonly GateConfig[];
  agents: readonly AgentSelector[];
  approvers: readonly ApproverName[];
  trials: number;
  concurrency: number;
  shard?: { index: number; count: number };
  output: RunOutput;
  resume: boolean;
  /**
   * Share world states between trials (harness/runner/world-states.ts; default true). False runs
   * every trial in its own world from start to end: the same records, slower.
   */
  cache?: boolean;
  /** Told at the end what the cache did (not called with `cache: false`). */
  onCacheStats?: (stats: CacheStats) => void;
  onTrial?: (record: TrialRecord, done: number, total: number) => void;
}

/** A gate that can never ask anyone gives the same trial under every approver: run it once. */
export function needsApprover(gate: GateConfig): boolean {
  return gate.layers.length > 0 || gate.projectTrust === "ask";
}

/** The run's approvers, except for the default run's evasion sample, which runs under ROBUSTNESS_APPROVER only. */
function approversFor(agent: AgentSpec, approvers: readonly ApproverName[]): ApproverName[] {
  return agent.kind === "persona" && agent.robustnessSample ? [ROBUSTNESS_APPROVER] : [...approvers];
}

type TrialKeyParts = { task: string; agent: string; gate: string; approver: string; attempt: number };

/**
 * A trial's id: `<task>.<agent>.<gate>.<approver>.<attempt>`, each part spelled exactly as in the
 * record (`agent` is `scripted:careless`, not `scripted_careless`). Characters that cannot stand
 * in a file name (trials/<trial_id>.jsonl), such as the `/` of `openai/gpt-4o`, are
 * percent-encoded (`openai%2Fgpt-4o`); letters, digits and `_ . @ - : + =` stay as they are.
 */
export function trialKey(t: TrialKeyParts): string {
  const hex = (x: string) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`;
  const part = (s: string) => s.replace(/[^\w.@:+=-]/g, (c) => encodeURIComponent(c).replace(/[!'()*~]/g, hex));
  return [t.task, t.agent, t.gate, t.approver, String(t.attempt)].map(part).join(".");
}

/** The id earlier versions gave a trial (every other character replaced by `_`); `--resume` still recognises it. */
export function legacyTrialKey(t: TrialKeyParts): string {
  return `${t.task}.${t.agent}.${t.gate}.${t.approver}.${t.attempt}`.replace(/[^\w.@-]+/g, "_");
}

function keyParts(s: TrialSpec): TrialKeyParts {
  return { task: s.task.task.id, agent: agentLabel(s.agent), gate: s.gate.name, approver: s.approver, attempt: s.attempt };
}

export function planTrials(opts: Omit<MatrixOptions, "output" | "resume" | "concurrency" | "onTrial">): TrialSpec[] {
  const specs: TrialSpec[] = [];
  for (const task of opts.tasks) {
    for (const agent of agentsForTask(opts.agents, task)) {
      for (const gate of opts.gates) {
        const approvers: (ApproverName | "-")[] = needsApprover(gate) ? approversFor(agent, opts.approvers) : ["-"];
        for (const approver of approvers) {
          for (let attempt = 1; attempt <= opts.trials; attempt++) {
            const trialId = trialKey({ task: task.task.id, agent: agentLabel(agent), gate: gate.name, approver, attempt });
            specs.push({ runId: opts.runId, trialId, task, agent, gate, approver, attempt });
          }
        }
      }
    }
  }
  if (!opts.shard) return specs;
  const { index, count } = opts.shard;
  return specs.filter((_, i) => i % count === index - 1);
}

export async function runMatrix(opts: MatrixOptions): Promise<TrialRecord[]> {
  const planned = planTrials(opts);
  const previous = opts.resume ? opts.output.readResults() : [];
  if (opts.resume) opts.output.repairResults();
  const finished = new Set(previous.map((r) => r.trial_id));
  // A record written by an earlier version carries the legacy id of the same trial.
  const todo = planned.filter((s) => !finished.has(s.trialId) && !finished.has(legacyTrialKey(keyParts(s))));
  const plannedIds = new Set(planned.flatMap((s) => [s.trialId, legacyTrialKey(keyParts(s))]));
  const records: TrialRecord[] = previous.filter((r) => plannedIds.has(r.trial_id));
  let done = records.length;
  const templates = new WorldTemplates();
  const states = opts.cache === false ? undefined : new WorldStates(templates);
  for (const spec of todo) states?.expect(spec.task.task.id, 1);
  const queue = new TrialQueue(todo, (s) => s.task.task.id);
  const worker = async () => {
    for (let spec = queue.take(); spec; spec = queue.take()) {
      const result = await runTrial({ ...spec, templates, ...(states ? { states } : {}) });
      queue.done(spec);
      await states?.done(spec.task.task.id);
      opts.output.appendTrial(result.record, result.approvals, result.events);
      records.push(result.record);
      opts.onTrial?.(result.record, ++done, planned.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, todo.length)) }, worker));
  } finally {
    if (states) opts.onCacheStats?.({ ...states.stats });
    await states?.dispose();
    await templates.dispose();
  }
  return records;
}

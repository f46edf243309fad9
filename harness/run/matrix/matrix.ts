/**
 * The evaluation matrix: tasks x agents x gate configurations x approvers x attempts, run
 * with bounded concurrency, each finished trial appended to results.jsonl at once.
 */
import type { GateConfig } from "../../../gates/config.ts";
import type { ApproverName } from "../../trial/approvers/registry.ts";
import type { LoadedTask } from "../../model/task/load.ts";
import type { AgentSpec } from "../../trial/agent/drivers/registry.ts";
import { agentsForTask, type AgentSelector, ROBUSTNESS_APPROVER } from "./agents.ts";
import { createHash } from "node:crypto";
import { InputError } from "../../../kernel/errors.ts";
import { agentDeterministic, agentProduct, agentRobustnessSample, agentSampled } from "../../trial/agent/drivers/registry.ts";
import { changedParts, Fingerprinter } from "./fingerprint.ts";
import type { RunOutput } from "../output/output.ts";
import { storable, type ResultStore } from "./result-store.ts";
import { disagreements } from "./record-check.ts";
import { answeredByPerson } from "../../trial/approvers/registry.ts";
import type { TrialFingerprint, TrialRecord } from "../../model/record/record.ts";
import { agentLabel, runTrial, type TrialSpec } from "../../trial/trial.ts";
import { TrialQueue } from "./trial-queue.ts";
import { WorldStates, type CacheStats } from "../../trial/states/world-states.ts";
import { WorldTemplates } from "../../trial/states/world-templates.ts";

export interface MatrixOptions {
  runId: string;
  tasks: readonly LoadedTask[];
  gates: readonly GateConfig[];
  agents: readonly AgentSelector[];
  approvers: readonly ApproverName[];
  /** Attempts of every trial of a deterministic (scripted) agent. */
  trials: number;
  /** Attempts (epochs) of every trial of a sampled agent (a real model, its recording); default `trials`. */
  epochs?: number;
  concurrency: number;
  shard?: { index: number; count: number };
  output: RunOutput;
  resume: boolean;
  /**
   * Share world states between trials (harness/trial/states/world-states.ts; default true). False runs
   * every trial in its own world from start to end: the same records, slower.
   */
  cache?: boolean;
  /** Told at the end what the cache did (not called with `cache: false`). */
  onCacheStats?: (stats: CacheStats) => void;
  onTrial?: (record: TrialRecord, done: number, total: number) => void;
  /** Finished trials by fingerprint: a trial found there is not run again, a trial run is added (result-store.ts). */
  store?: ResultStore;
  /** With `resume`: the out dir may hold another matrix; this run adds its trials to it. */
  extend?: boolean;
  /** Told before any trial runs what resuming and the store will reuse (runMatrix's `ReuseStats`). */
  onReuse?: (stats: ReuseStats) => void;
  /** The fingerprints to compute with (one per process keeps each part computed once); default a new one. */
  fingerprints?: Fingerprinter;
}

/** What a run took from earlier work instead of running it. */
export interface ReuseStats {
  planned: number;
  /** Records of the out dir (--resume) whose fingerprint is the planned trial's. */
  resumed: number;
  /** Records of the out dir whose trial changed since: run again, by the first part that changed (fingerprint.ts). */
  stale: Record<string, number>;
  /** Trials served from the result store. */
  served: number;
  /** Trials to run. */
  toRun: number;
  /** Stored trials whose record disagrees with their own event log (record-check.ts): not served, run again. */
  disagreeing?: { trial_id: string; fields: string[] }[];
}

/** The out dir's matrix: every planned trial id of the whole (unsharded) matrix, hashed. */
export function matrixId(plannedIds: readonly string[]): string {
  return createHash("sha256")
    .update([...plannedIds].sort().join("\n"))
    .digest("hex")
    .slice(0, 16);
}

/** A gate that can never ask anyone gives the same trial under every approver: run it once. */
export function needsApprover(gate: GateConfig): boolean {
  return gate.layers.length > 0 || gate.projectTrust === "ask";
}

/** The run's approvers, except for the default run's evasion sample, which runs under ROBUSTNESS_APPROVER only. */
function approversFor(agent: AgentSpec, approvers: readonly ApproverName[]): ApproverName[] {
  return agentRobustnessSample(agent) ? [ROBUSTNESS_APPROVER] : [...approvers];
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
        // An agent product runs under its own settings only; gatebench's loop under gatebench's gates.
        if (agentProduct(agent) !== gate.product?.name) continue;
        const approvers: (ApproverName | "-")[] = needsApprover(gate) ? approversFor(agent, opts.approvers) : ["-"];
        // A real model is a sample: each trial runs once per epoch; a scripted agent once per --trials attempt.
        const attempts = agentSampled(agent) ? (opts.epochs ?? opts.trials) : opts.trials;
        for (const approver of approvers) {
          for (let attempt = 1; attempt <= attempts; attempt++) {
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
  const fingerprints = opts.fingerprints ?? new Fingerprinter();
  const fps = new Map<TrialSpec, TrialFingerprint>(planned.map((s) => [s, fingerprints.of(s, agentLabel(s.agent))]));
  const { shard: _shard, ...unsharded } = opts;
  const whole = matrixId(planTrials(unsharded).map((s) => s.trialId));
  const previous = opts.resume ? opts.output.readResults() : [];
  const earlier = opts.resume ? opts.output.readMatrix() : undefined;
  if (earlier && earlier !== whole && !opts.extend)
    throw new InputError(
      opts.output.dir,
      "matrix.json",
      "the same matrix as the run being resumed (this --tasks/--gates/--agents/--approvers/--trials/--epochs plans other trials); add --extend to add them to that run, or use another --out",
    );
  opts.output.writeMatrix(
    opts.extend && earlier && earlier !== whole ? matrixId([...new Set([...previous.map((r) => r.trial_id), ...planned.map((s) => s.trialId)])]) : whole,
  );
  // A record counts only for exactly the trial that would make it again; one written by an earlier
  // version carries the legacy id of the same trial and no fingerprint: it is run again.
  const byId = new Map<string, TrialSpec>();
  for (const s of planned) {
    byId.set(s.trialId, s);
    byId.set(legacyTrialKey(keyParts(s)), s);
  }
  const stale: Record<string, number> = {};
  const done = new Set<TrialSpec>();
  const records: TrialRecord[] = [];
  const dropped = new Set<string>();
  for (const r of previous) {
    const spec = byId.get(r.trial_id);
    if (!spec) {
      if (opts.extend) records.push(r); // a trial of the run being extended
      continue;
    }
    const now = fps.get(spec)!;
    if (r.fingerprint?.trial === now.trial && r.trial_id === spec.trialId) {
      done.add(spec);
      records.push(r);
      continue;
    }
    dropped.add(r.trial_id);
    const why = changedParts(r.fingerprint, now)[0] ?? "record";
    stale[why] = (stale[why] ?? 0) + 1;
  }
  if (opts.resume) opts.output.repairResults(dropped);
  const resumed = records.length;
  const fresh = planned.filter((s) => !done.has(s));
  // What the store holds is not run again.
  const served: { spec: TrialSpec; stored: NonNullable<ReturnType<ResultStore["get"]>> }[] = [];
  const todo: TrialSpec[] = [];
  const disagreeing: { trial_id: string; fields: string[] }[] = [];
  for (const s of fresh) {
    // What a person answered is never served: the next run's person may answer otherwise.
    const stored = opts.store && agentDeterministic(s.agent) && !answeredByPerson(s.approver) ? opts.store.get(fps.get(s)!.trial, opts.runId) : undefined;
    const wrong = stored && stored.record.trial_id === s.trialId ? disagreements(stored) : [];
    if (wrong.length > 0) disagreeing.push({ trial_id: s.trialId, fields: wrong });
    if (stored && stored.record.trial_id === s.trialId && wrong.length === 0) served.push({ spec: s, stored });
    else todo.push(s);
  }
  opts.onReuse?.({
    planned: planned.length,
    resumed,
    stale,
    served: served.length,
    toRun: todo.length,
    ...(disagreeing.length > 0 ? { disagreeing } : {}),
  });
  let count = records.length;
  await opts.output.appendServed(served.map((s) => s.stored));
  for (const { stored } of served) {
    records.push(stored.record);
    opts.onTrial?.(stored.record, ++count, planned.length);
  }
  const templates = new WorldTemplates();
  const states = opts.cache === false ? undefined : new WorldStates(templates);
  for (const spec of todo) states?.expect(spec.task.task.id, 1);
  const queue = new TrialQueue(todo, (s) => s.task.task.id);
  const worker = async () => {
    for (let spec = queue.take(); spec; spec = queue.take()) {
      const result = await runTrial({ ...spec, templates, ...(states ? { states } : {}) });
      queue.done(spec);
      await states?.done(spec.task.task.id);
      const fp = fps.get(spec)!;
      result.record.fingerprint = fp;
      if (opts.store && storable(result, agentDeterministic(spec.agent), answeredByPerson(spec.approver))) opts.store.put(fp.trial, result);
      opts.output.appendTrial(result.record, result.approvals, result.events);
      records.push(result.record);
      opts.onTrial?.(result.record, ++count, planned.length);
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

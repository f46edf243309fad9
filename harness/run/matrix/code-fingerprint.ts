/**
 * The code and configuration a whole matrix runs with, for summary.json's meta
 * (`code_fingerprints`): the harness part of the trial fingerprint (its code, the lockfile, the
 * Node, bubblewrap and OS versions and the trials' filesystem), each gate configuration's part
 * (its file and the code of its layers and of what they run), each task's, and one digest over
 * every trial's agent part and one over every approver's. Every shard of one matrix plans the
 * same trials, so shards run with the same code carry the same value; `merge` refuses shards
 * whose values differ (harness/run/report/publishing/merge.ts).
 */
import { createHash } from "node:crypto";
import { agentLabel, type TrialSpec } from "../../trial/trial.ts";
import type { Fingerprinter } from "./fingerprint.ts";

export interface CodeFingerprints {
  harness: string;
  /** By gate name (the record's `gate`). */
  gates: Record<string, string>;
  /** By task id. */
  tasks: Record<string, string>;
  /** Over every planned trial's agent part (a persona's steps, a model's id). */
  agents: string;
  /** Over every planned trial's approver part (a simulated user's settings). */
  approvers: string;
}

function digest(lines: Iterable<string>): string {
  return createHash("sha256")
    .update([...new Set(lines)].sort().join("\n"))
    .digest("hex")
    .slice(0, 16);
}

/** The code fingerprints of the trials `specs` (the whole, unsharded matrix). */
export function codeFingerprints(fingerprints: Fingerprinter, specs: readonly TrialSpec[]): CodeFingerprints {
  const gates: Record<string, string> = {};
  const tasks: Record<string, string> = {};
  const agents: string[] = [];
  const approvers: string[] = [];
  for (const s of specs) {
    const label = agentLabel(s.agent);
    const fp = fingerprints.of(s, label);
    gates[s.gate.name] = fp.gate;
    tasks[s.task.task.id] = fp.task;
    agents.push(`${s.task.task.id}\0${label}\0${fp.agent}`);
    approvers.push(`${s.approver}\0${fp.approver}`);
  }
  const sorted = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
  return { harness: fingerprints.harness(), gates: sorted(gates), tasks: sorted(tasks), agents: digest(agents), approvers: digest(approvers) };
}

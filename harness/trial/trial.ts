/**
 * One trial as a sequence of named phases: prepare world -> snapshot S0 -> agent loop -> final
 * snapshot -> invariants (what must survive) -> hidden test -> fold record. Each phase is a small function in a module beside this one
 * (states/prepare-world.ts, agent-loop.ts, snapshots.ts, hidden-test.ts); a phase
 * that throws ends the trial as a harness error whose record names the phase. Once the agent may
 * have acted, the final snapshot is still taken: the record keeps the harm it measured, and a
 * world that cannot be measured is `measurement_failed` with harm unknown, never "not harmed".
 */
import { escalatesApproved } from "../../gates/config.ts";
import { agentDeterministic, agentHarmful, agentLabel } from "./agent/drivers/registry.ts";
import type { ApprovalRecord } from "./approvers/broker.ts";
import { CallBook } from "./call-book.ts";
import { runAgentLoop } from "./agent-loop.ts";
import { runHiddenTestPhase } from "./hidden-test.ts";
import { inPhase, TrialPhaseError, type PhaseTimings } from "./phase-error.ts";
import { worldOptions } from "./states/prepare-world.ts";
import { finalSnapshot } from "./snapshots.ts";
import { measureInvariants } from "./invariants.ts";
import { withInvariants } from "../model/effects/invariants.ts";
import { emptyTrialRecord, failedTrialRecord, foldTrialRecord, harmFields, type FoldInput, type TrialRecord } from "../model/record/record.ts";
import { stamped, type TrialEvent, type TrialEventBody, type TrialLog } from "../model/record/events.ts";
import { TrialStates } from "./states/trial-states.ts";
import { BWRAP_WORLDS } from "./states/bwrap-worlds.ts";
import type { TrialSpec } from "./trial-spec.ts";

export { agentLabel } from "./agent/drivers/registry.ts";

export type { TrialSpec } from "./trial-spec.ts";

export type { TrialEvent } from "../model/record/events.ts";

export interface TrialResult {
  record: TrialRecord;
  approvals: ApprovalRecord[];
  events: TrialEvent[];
  /** For validation: the hidden test's output and the trial's effects (S0 -> end), one line each. */
  evidence: { testOutput: string; changes: string[] };
}

export async function runTrial(spec: TrialSpec): Promise<TrialResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const events: TrialEvent[] = [];
  // The one place an event gets its time; every producer's fields are checked against the union (events.ts).
  const log: TrialLog = (type, ...fields) => events.push(stamped(Math.round(elapsed()), { type, ...fields[0] } as TrialEventBody));
  const { task } = spec;
  const empty = emptyTrialRecord({
    run_id: spec.runId,
    trial_id: spec.trialId,
    task: task.task.id,
    category: task.task.category,
    agent: agentLabel(spec.agent),
    agent_harmful: agentHarmful(spec.agent),
    gate: spec.gate.name,
    approver: spec.approver,
    attempt: spec.attempt,
  });
  const approvals: ApprovalRecord[] = [];
  const evidence: TrialResult["evidence"] = { testOutput: "", changes: [] };
  const timings: PhaseTimings = {};
  let states: TrialStates | undefined;
  let book: CallBook | undefined;
  let record: TrialRecord;
  /** Set once the agent may have acted: a later failure still measures the world, or records its harm as unknown. */
  let acted = false;
  let net: FoldInput["net"] | undefined;
  try {
    const options = worldOptions(task, spec.gate, spec.keepWorld ?? false, log);
    // A trial shares world states with other trials only when its agent is deterministic.
    const store = spec.states && agentDeterministic(spec.agent) ? spec.states : undefined;
    const worlds = spec.worlds ?? spec.templates?.worlds ?? spec.states?.worlds ?? BWRAP_WORLDS;
    const trialStates = new TrialStates({ worlds, task, options, templates: spec.templates, store, log });
    states = trialStates;
    await inPhase("prepare_world", () => trialStates.start(), timings);
    const s0 = await inPhase("snapshot_s0", async () => trialStates.s0(), timings);
    log("world_ready", { files: s0.size });
    // A blocked call is replayed with exactly the permissions an approval would have given it.
    const replayWorld = escalatesApproved(spec.gate) ? { profile: { kind: "default" as const } } : {};
    const calls = new CallBook({ states: trialStates, s0, authorized: task.task.authorized, log, replayWorld });
    book = calls;
    acted = true;
    // The world is measured whatever the agent loop did: a harness failure in it must not hide harm.
    const agentRun = await inPhase("agent_loop", () => runAgentLoop(spec, trialStates, calls, log), timings).then(
      (agent) => ({ agent }),
      (failure: unknown) => ({ failure }),
    );
    const final = await inPhase("final_snapshot", () => finalSnapshot(trialStates, calls, task.task.authorized), timings);
    net = final.net;
    evidence.changes = final.changes;
    // What must survive inside the world (`preserve:`): a lost item is a wrongful modification like any other.
    const losses = await inPhase(
      "invariants",
      () => measureInvariants(trialStates, task.task.preserve, final.s0, final.end, task.task.limits.test_timeout_sec, log),
      timings,
    );
    net = withInvariants(final.net, losses);
    final.net = net;
    // What the trial did to the world, in its own log: a stored record must agree with it (harness/run/matrix/record-check.ts).
    const { wrongful_paths: _p, lost_git: _g, lost_items: _i, ...harm } = harmFields(final.net);
    log("effects", harm);
    if ("failure" in agentRun) throw agentRun.failure;
    const agent = agentRun.agent;
    const test = await inPhase("hidden_test", () => runHiddenTestPhase(trialStates, task.testsDir, task.task.limits.test_timeout_sec, log), timings);
    evidence.testOutput = test.output;
    approvals.push(...agent.approvals);
    record = await inPhase(
      "fold_record",
      async () => foldTrialRecord(empty, { agent: { ...agent, calls: await calls.facts() }, net: final.net, test, durationMs: 0 }),
      timings,
    );
  } catch (e) {
    const failure = e instanceof TrialPhaseError ? e : new TrialPhaseError("fold_record", e);
    const message = ((failure.cause as Error)?.message ?? String(failure.cause)).slice(0, 1000);
    log("harness_error", { phase: failure.phase, message });
    const harm = net ? { net } : acted ? { unmeasured: true as const } : undefined;
    record = failedTrialRecord(empty, failure.phase, message, 0, book?.gateMs ?? 0, harm);
  } finally {
    await states?.close();
  }
  log("phases", { ms: timings });
  record.duration_ms = Math.round(elapsed());
  return { record, approvals, events, evidence };
}

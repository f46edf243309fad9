/**
 * Phase "agent_loop": the agent runs with the gate stack in pi-agent-core's `beforeToolCall`,
 * the call book in `afterToolCall`, and the tools behind a thin path that only checks the
 * arguments against what was decided, escalates approved calls when the configuration says so,
 * and names OS refusals. Ends at the agent's last answer, the turn limit or the time limit.
 */
import { Agent, type AgentTool } from "@mariozechner/pi-agent-core";
import { escalatesApproved } from "../../gates/config.ts";
import type { Gate } from "../../gates/types.ts";
import { createDriver } from "./agent/drivers/registry.ts";
import { createGatekeeper } from "./agent/gatekeeper.ts";
import { SYSTEM_PROMPT } from "./agent/system-prompt.ts";
import { ConfirmationBroker, type ApprovalRecord, type BrokerEvent } from "./approvers/broker.ts";
import { createApprover } from "./approvers/index.ts";
import { NO_APPROVER, NO_UI_USER } from "./approvers/registry.ts";
import { approverSeed } from "./approvers/seed.ts";
import { TOOL_PERMISSIONS } from "../../kernel/tools.ts";
import { toolError } from "./agent/tool-error.ts";
import { TOOL_DEFINITIONS } from "../model/tools/index.ts";
import type { CallBook, TrialLog } from "./call-book.ts";
import { loadProjectGatesFor } from "./project-gates.ts";
import { runProcessAgent } from "./process-agent.ts";
import { logEvent } from "../model/record/events.ts";
import type { AgentPhaseFacts } from "../model/record/record.ts";
import type { TrialSpec } from "./trial-spec.ts";
import type { TrialStates } from "./states/trial-states.ts";

/** What the agent loop needs of a trial's spec. */
export type AgentLoopSpec = Pick<TrialSpec, "runId" | "trialId" | "task" | "agent" | "gate" | "approver" | "attempt">;

export interface AgentLoopResult extends Omit<AgentPhaseFacts, "calls"> {
  approvals: ApprovalRecord[];
}

/** The tools the agent sees: each call admitted by the book, run escalated when approved and the configuration escalates. */
function gatedTools(states: TrialStates, book: CallBook, escalateApproved: boolean, deadline: AbortSignal, log: TrialLog): AgentTool[] {
  // The tools' names, descriptions and schemas; their calls run through `states`.
  return TOOL_DEFINITIONS.map((tool) => ({
    ...tool,
    execute: async (id, params, signal, onUpdate) => {
      // A call that comes after the trial's time is up does not run (one already running is killed with the world's commands).
      if (deadline.aborted) throw toolError("trial_timeout", "the trial's time is up; the call was not executed");
      const verdict = book.admit(id, params);
      const escalate = escalateApproved && verdict === "approved";
      if (escalate) log("escalated", { id });
      try {
        return await states.execute(tool.name, id, params, escalate, signal, onUpdate);
      } catch (e) {
        throw book.failed(id, e);
      }
    },
  }));
}

export async function runAgentLoop(spec: AgentLoopSpec, states: TrialStates, book: CallBook, log: TrialLog): Promise<AgentLoopResult> {
  const { task, gate } = spec;
  const limits = task.task.limits;
  const env = states.env;
  // A gate configuration that can never ask runs once, with nobody to ask ("-").
  const approver = createApprover(
    spec.approver === NO_APPROVER ? NO_UI_USER : spec.approver,
    { instruction: task.task.instruction, cwd: env.cwd, home: env.home, seed: approverSeed(spec.trialId, spec.attempt) },
    { authorized: task.task.authorized, counterfactual: async (toolCallId: string) => (await book.replay(toolCallId)).wrongful },
  );
  const broker = new ConfirmationBroker({
    runId: spec.runId,
    trialId: spec.trialId,
    policyVersion: gate.policyVersion,
    approver,
    onEvent: (e: BrokerEvent) => logEvent(log, e),
  });
  const projectGates: Gate[] = gate.projectTrust
    ? await loadProjectGatesFor(gate.projectTrust, {
        env,
        runId: spec.runId,
        signal: new AbortController().signal,
        ui: {
          hasUI: broker.hasUI,
          confirm: async (req) =>
            (await broker.confirm({ id: "project-trust", tool: "project_trust", args: {} }, req, new AbortController().signal)).kind === "approved",
        },
      })
    : [];
  // Layers that start something in the trial's sandbox (a configuration's extension) do it now,
  // outside every call's time limit.
  await Promise.all(gate.layers.map((layer) => layer.prepare?.(env)));
  const beforeToolCall = createGatekeeper({
    layers: [...gate.layers, ...projectGates],
    broker,
    env,
    runId: spec.runId,
    permissions: TOOL_PERMISSIONS,
    integrity: gate.integrity,
    onRequested: (call) => book.requested(call),
    onDecided: (gated) => book.decided(gated),
  });

  const deadline = new AbortController();
  const driver = createDriver(spec.agent, task, { trialId: spec.trialId, gate: gate.name, approver: spec.approver, attempt: spec.attempt });
  // An agent product runs as its own process, its own permission system deciding.
  if (driver.process) return runProcessAgent(driver, spec, states, book, log);
  const agent = new Agent({
    initialState: { systemPrompt: SYSTEM_PROMPT, model: driver.model, tools: gatedTools(states, book, escalatesApproved(gate), deadline.signal, log) },
    streamFn: driver.streamFn,
    beforeToolCall,
    afterToolCall: book.afterToolCall,
    toolExecution: "sequential",
    ...(driver.getApiKey ? { getApiKey: driver.getApiKey } : {}),
  });
  let turns = 0;
  let retryTurns = 0;
  let timedOut = false;
  agent.subscribe((event) => {
    if (event.type === "message_end" && event.message.role === "assistant") {
      turns += 1;
      if (book.anyBlocked) retryTurns += 1;
      driver.meter.observe(event.message, book.anyBlocked);
      if (turns >= limits.max_turns) agent.abort();
    }
  });
  // The agent's time limit: the loop is aborted and whatever runs in the world is killed now.
  let expired: Promise<void> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
    agent.abort();
    expired = states.expire();
    log("trial_timeout", { after_sec: limits.agent_timeout_sec });
  }, limits.agent_timeout_sec * 1000);
  try {
    await agent.prompt(task.task.instruction);
  } finally {
    clearTimeout(timer);
    await expired;
  }
  // A provider that fails (HTTP error, broken stream, no key) says nothing about the gate or
  // the agent's behaviour: the trial is an errored trial, kept out of the sums like a harness error.
  const modelError = agent.state.errorMessage && !timedOut && turns < limits.max_turns ? agent.state.errorMessage.slice(0, 500) : undefined;
  // A replayed recording that met a request it has no response for: the trial diverged from it.
  const divergence = driver.divergence?.();
  if (divergence) log("diverged", { ...divergence });
  else if (modelError) log("agent_error", { message: modelError });
  return {
    divergence,
    approvals: [...broker.records],
    turns,
    retryTurns,
    timedOut,
    modelError,
    gateMs: book.gateMs,
    tokens: { ...driver.meter.tally },
  };
}

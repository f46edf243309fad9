/**
 * Scripted drivers as pi-agent-core `streamFn`s: `nop` answers without a tool call,
 * `reference` replays reference.yaml, `scripted:<persona>` replays a persona. Usage is
 * estimated with a real tokenizer over exactly what each turn would send.
 */
import { createAssistantMessageEventStream, type AssistantMessage, type Context, type Model, type ToolCall } from "@mariozechner/pi-ai";
import type { StreamFn } from "@mariozechner/pi-agent-core";
import type { Persona, Step } from "../../../model/task/schema.ts";
import { outcomeOfResult } from "../tool-error.ts";
import { EstimatedMeter } from "./meters.ts";
import { StepProgram, type CallOutcome } from "./step-program.ts";
import type { Driver, DriverSpec } from "./types.ts";

export const SCRIPTED_MODEL: Model<"gatebench-scripted"> = {
  id: "scripted",
  name: "gatebench scripted agent",
  api: "gatebench-scripted",
  provider: "gatebench",
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 200_000,
  maxTokens: 8192,
};

const NOP_TEXT = "I have looked at the request. I will not make any changes.";

/** How the previous call ended, read from the tool result the agent loop gave back. */
function lastToolOutcome(context: Context): CallOutcome | undefined {
  const last = context.messages[context.messages.length - 1];
  if (last?.role !== "toolResult") return undefined;
  return outcomeOfResult(last.isError, last.content);
}

function messageFor(step: Step | undefined, callId: string): AssistantMessage {
  const content: AssistantMessage["content"] = [];
  if (step?.say) content.push({ type: "text", text: step.say });
  if (!step) content.push({ type: "text", text: "Done." });
  if (step?.tool) {
    const call: ToolCall = { type: "toolCall", id: callId, name: step.tool, arguments: structuredClone(step.args ?? {}) };
    content.push(call);
  }
  return {
    role: "assistant",
    content,
    api: SCRIPTED_MODEL.api,
    provider: SCRIPTED_MODEL.provider,
    model: SCRIPTED_MODEL.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: step?.tool ? "toolUse" : "stop",
    timestamp: Date.now(),
  };
}

export function createScriptedDriver(name: string, steps: readonly Step[]): Driver {
  const program = new StepProgram(steps);
  const meter = new EstimatedMeter();
  let calls = 0;
  const streamFn: StreamFn = (_model, context) => {
    const step = program.next(lastToolOutcome(context));
    const message = messageFor(step, `call_${++calls}`);
    const used = meter.recordTurn(context, message);
    message.usage = {
      input: used.input - used.cached,
      output: used.output,
      cacheRead: used.cached,
      cacheWrite: 0,
      totalTokens: used.input + used.output,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    };
    const stream = createAssistantMessageEventStream();
    queueMicrotask(() => {
      stream.push({ type: "start", partial: { ...message, content: [] } });
      stream.push({ type: "done", reason: message.stopReason === "toolUse" ? "toolUse" : "stop", message });
      stream.end(message);
    });
    return stream;
  };
  return { name, model: SCRIPTED_MODEL, streamFn, meter };
}

export function createNopDriver(): Driver {
  return { ...createScriptedDriver("nop", [{ say: NOP_TEXT }]), name: "nop" };
}

export const nopDriver: DriverSpec<{ kind: "nop" }, { kind: "nop" }> = {
  selectorKind: "nop",
  kind: "nop",
  syntax: "nop",
  parse: (s) => (s === "nop" ? { kind: "nop" } : undefined),
  expand: (sel) => [sel],
  label: () => "nop",
  harmful: () => false,
  deterministic: true,
  sampled: false,
  create: () => createNopDriver(),
  identity: () => ({ kind: "nop" }),
};

export const referenceDriver: DriverSpec<{ kind: "reference" }, { kind: "reference" }> = {
  selectorKind: "reference",
  kind: "reference",
  syntax: "reference",
  parse: (s) => (s === "reference" ? { kind: "reference" } : undefined),
  expand: (sel) => [sel],
  label: () => "reference",
  harmful: () => false,
  deterministic: true,
  sampled: false,
  create: (_spec, task) => createScriptedDriver("reference", task.reference.steps),
  identity: (_spec, task) => ({ kind: "reference", steps: task.reference.steps }),
};

/**
 * Personas: `scripted` (every hand-written persona), `scripted:<name>` (one, hand-written or
 * generated), `mutants` (every generated evasion variant under personas/generated/) and
 * `mutants:sample` (one variant per evasion family of each task, the first by name: the default
 * run's measure of evasion robustness; its agents carry `robustnessSample`).
 */
type ScriptedSelector = { kind: "scripted"; persona?: string; mutants?: "all" | "sample" };
type PersonaAgent = { kind: "persona"; persona: Persona; robustnessSample?: true };

/** One generated persona per evasion family, the first by name. */
export function samplePerFamily(generated: readonly Persona[]): Persona[] {
  const first = new Map<string, Persona>();
  for (const p of [...generated].sort((a, b) => a.name.localeCompare(b.name))) {
    const family = p.family ?? "unknown";
    if (!first.has(family)) first.set(family, p);
  }
  return [...first.values()];
}

export const scriptedDriver: DriverSpec<ScriptedSelector, PersonaAgent> = {
  selectorKind: "scripted",
  kind: "persona",
  syntax: "scripted, scripted:<persona>, mutants, mutants:sample",
  parse: (s) =>
    s === "scripted"
      ? { kind: "scripted" }
      : s === "mutants"
        ? { kind: "scripted", mutants: "all" }
        : s === "mutants:sample"
          ? { kind: "scripted", mutants: "sample" }
          : s.startsWith("scripted:")
            ? { kind: "scripted", persona: s.slice("scripted:".length) }
            : undefined,
  expand: (sel, task) => {
    if (sel.mutants === "sample") return samplePerFamily(task.generated ?? []).map((persona) => ({ kind: "persona", persona, robustnessSample: true }));
    const pool = sel.mutants ? (task.generated ?? []) : sel.persona ? [...task.personas, ...(task.generated ?? [])] : task.personas;
    return pool.filter((p) => !sel.persona || sel.persona === p.name).map((persona) => ({ kind: "persona", persona }));
  },
  label: (spec) => `scripted:${spec.persona.name}`,
  harmful: (spec) => spec.persona.harmful,
  deterministic: true,
  sampled: false,
  create: (spec) => createScriptedDriver(`scripted:${spec.persona.name}`, spec.persona.steps),
  identity: (spec) => ({ kind: "persona", persona: spec.persona, sample: spec.robustnessSample === true }),
  robustnessSample: (spec) => spec.robustnessSample === true,
};

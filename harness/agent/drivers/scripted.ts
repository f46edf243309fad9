/**
 * Scripted drivers as pi-agent-core `streamFn`s: `nop` answers without a tool call,
 * `reference` replays reference.yaml, `scripted:<persona>` replays a persona. Usage is
 * estimated with a real tokenizer over exactly what each turn would send.
 */
import { createAssistantMessageEventStream, type AssistantMessage, type Context, type Model, type ToolCall } from "@mariozechner/pi-ai";
import type { StreamFn } from "@mariozechner/pi-agent-core";
import type { Step } from "../../task/schema.ts";
import { TokenMeter } from "../tokens.ts";
import { StepProgram, type CallOutcome } from "./step-program.ts";

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

export interface Driver {
  readonly name: string;
  readonly model: Model<any>;
  readonly streamFn: StreamFn;
  readonly meter: TokenMeter | undefined;
}

/** How each tool call of the trial ended, filled in by the gatekeeper and the tool wrapper. */
export type OutcomeBook = Map<string, CallOutcome>;

const NOP_TEXT = "I have looked at the request. I will not make any changes.";

function lastToolOutcome(context: Context, outcomes: OutcomeBook): CallOutcome | undefined {
  const last = context.messages[context.messages.length - 1];
  if (!last || last.role !== "toolResult") return undefined;
  return outcomes.get(last.toolCallId) ?? (last.isError ? "error" : "ok");
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

export function createScriptedDriver(name: string, steps: readonly Step[], outcomes: OutcomeBook): Driver {
  const program = new StepProgram(steps);
  const meter = new TokenMeter();
  let calls = 0;
  const streamFn: StreamFn = (_model, context) => {
    const step = program.next(lastToolOutcome(context, outcomes));
    const message = messageFor(step, `call_${++calls}`);
    const used = meter.recordTurn(context, message);
    message.usage = { input: used.input - used.cached, output: used.output, cacheRead: used.cached, cacheWrite: 0, totalTokens: used.input + used.output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
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

export function createNopDriver(outcomes: OutcomeBook): Driver {
  return { ...createScriptedDriver("nop", [{ say: NOP_TEXT }], outcomes), name: "nop" };
}

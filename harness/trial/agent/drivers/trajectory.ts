/**
 * A conversation read back as what the agent did: each tool call it proposed, with the
 * arguments the gates saw and how the call ended, and its final answer. Pure.
 *
 * Arguments go through the same preparation as in the agent loop (the tool's `prepareArguments`,
 * then pi-ai's `validateToolArguments`), so a replay proposes exactly what the gates were shown.
 * A call the loop rejected before any gate (an unknown tool, arguments that fail the tool's
 * schema) cannot be replayed as a persona step: it is listed, not dropped silently.
 */
import { validateToolArguments, type AssistantMessage, type Message, type Tool, type ToolCall, type ToolResultMessage } from "@mariozechner/pi-ai";
import type { RecordedStatus } from "../../../model/import/types.ts";
import { outcomeOfResult } from "../tool-error.ts";

/** A tool as the agent loop holds it: pi-ai's tool plus the optional argument shim. */
export type LoopTool = Tool & { prepareArguments?: (args: unknown) => unknown };

export interface TrajectoryCall {
  /** The tool call's id in the conversation. */
  id: string;
  /** The assistant's text in the turn that made the call (on the turn's first replayable call). */
  say?: string;
  tool: string;
  args: Record<string, unknown>;
  /** `unknown`: the conversation ends before the call's result. */
  outcome: RecordedStatus;
}

export interface UnreplayableCall {
  /** 1-based position among every tool call of the conversation. */
  index: number;
  name: string;
  reason: string;
}

export interface Trajectory {
  calls: TrajectoryCall[];
  /** The text of the last answer without a tool call, when the agent gave one. */
  finalSay?: string | undefined;
  unreplayable: UnreplayableCall[];
}

function prepared(call: ToolCall, tools: readonly LoopTool[]): { args: Record<string, unknown> } | { reason: string } {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { reason: `no tool named ${JSON.stringify(call.name)}` };
  try {
    const args = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
    return { args: validateToolArguments(tool, { ...call, arguments: args as Record<string, unknown> }) as Record<string, unknown> };
  } catch (e) {
    return { reason: `arguments the tool rejected: ${String((e as Error)?.message ?? e).split("\n")[0]}` };
  }
}

const textOf = (m: AssistantMessage): string =>
  m.content
    .filter((c) => c.type === "text")
    .map((c) => c.text.trim())
    .filter(Boolean)
    .join("\n");

const joinText = (...parts: (string | undefined)[]): string | undefined => parts.filter(Boolean).join("\n") || undefined;

export function trajectoryOf(messages: readonly Message[], tools: readonly LoopTool[]): Trajectory {
  const results = new Map<string, ToolResultMessage>();
  for (const m of messages) if (m.role === "toolResult") results.set(m.toolCallId, m);
  const trajectory: Trajectory = { calls: [], unreplayable: [] };
  let index = 0;
  // Text of a turn whose calls could not be replayed: said with the next call that can.
  let carried: string | undefined;
  for (const m of messages) {
    // A reply that failed or was cut off: the loop acted on none of it.
    if (m.role !== "assistant" || m.stopReason === "error" || m.stopReason === "aborted") continue;
    const calls = m.content.filter((c): c is ToolCall => c.type === "toolCall");
    if (calls.length === 0) {
      trajectory.finalSay = joinText(carried, textOf(m));
      carried = undefined;
      continue;
    }
    let say = joinText(carried, textOf(m));
    carried = undefined;
    for (const call of calls) {
      index += 1;
      const p = prepared(call, tools);
      if ("reason" in p) {
        trajectory.unreplayable.push({ index, name: call.name, reason: p.reason });
        continue;
      }
      const result = results.get(call.id);
      const outcome: RecordedStatus = result ? outcomeOfResult(result.isError, result.content) : "unknown";
      trajectory.calls.push({ id: call.id, ...(say ? { say } : {}), tool: call.name, args: p.args, outcome });
      say = undefined;
    }
    carried = say;
  }
  if (carried) trajectory.finalSay = joinText(carried, trajectory.finalSay);
  return trajectory;
}

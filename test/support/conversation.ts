/**
 * Conversations as pi-agent-core hands them to a driver, for tests of what a recorder reads:
 * assistant turns with text and tool calls, tool results (a gate's block is the tool-error
 * JSON), and the agent's tools with their real schemas.
 */
import type { BlockCode } from "../../kernel/codes.ts";
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@mariozechner/pi-ai";
import { toolErrorJson } from "../../harness/trial/agent/tool-error.ts";
import type { LoopTool } from "../../harness/trial/agent/drivers/trajectory.ts";
import { bashSchema, deleteSchema, editSchema, writeSchema } from "../../harness/model/tools/definitions.ts";
import { prepareEditArguments } from "../../harness/model/tools/index.ts";

export const TOOLS: LoopTool[] = [
  { name: "bash", description: "bash", parameters: bashSchema },
  { name: "write", description: "write", parameters: writeSchema },
  { name: "edit", description: "edit", parameters: editSchema, prepareArguments: prepareEditArguments },
  { name: "delete", description: "delete", parameters: deleteSchema },
];

export const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ type: "toolCall", id, name, arguments: args });

export function assistant(content: (string | ToolCall)[], stopReason: AssistantMessage["stopReason"] = "toolUse"): AssistantMessage {
  return {
    role: "assistant",
    content: content.map((c) => (typeof c === "string" ? { type: "text" as const, text: c } : c)),
    api: "openai-completions",
    provider: "openai-compatible",
    model: "test-model",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason,
    timestamp: 0,
  };
}

export const answer = (text: string) => assistant([text], "stop");

function result(id: string, text: string, isError: boolean): ToolResultMessage {
  return { role: "toolResult", toolCallId: id, toolName: "bash", content: [{ type: "text", text }], isError, timestamp: 0 };
}
export const ok = (id: string, text = "") => result(id, text, false);
/** A gate's (or the user's) block, as the gatekeeper words it. */
export const blocked = (id: string, code: BlockCode = "user_denied") => result(id, toolErrorJson(code, "not allowed"), true);
/** A call that ran and failed. */
export const failed = (id: string, text = "exit code 1") => result(id, text, true);

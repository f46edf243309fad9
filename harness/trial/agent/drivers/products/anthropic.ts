/**
 * The Anthropic Messages protocol as the harness's endpoint speaks it to an agent product: the
 * request it reads (the tools the product offers, the tool results it sends back) and the
 * streamed answer it writes (server-sent events: message_start, one content block after another
 * with its deltas, message_delta with the stop reason, message_stop). Pure.
 */
import { z } from "zod";
import { type ReplyBlock, readSseEvents, sseEvent as event, type ToolResult, type WireProtocol } from "./protocol.ts";

export type { ReplyBlock, ToolResult };

const TextBlock = z.object({ type: z.literal("text"), text: z.string() }).passthrough();
const ToolResultBlock = z
  .object({
    type: z.literal("tool_result"),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(z.object({ type: z.string() }).passthrough())]).optional(),
    is_error: z.boolean().optional(),
  })
  .passthrough();
const AnyBlock = z.object({ type: z.string() }).passthrough();

const MessageSchema = z
  .object({
    role: z.string(),
    content: z.union([z.string(), z.array(AnyBlock)]),
  })
  .passthrough();

export const MessagesRequestSchema = z
  .object({
    model: z.string(),
    messages: z.array(MessageSchema),
    system: z.union([z.string(), z.array(AnyBlock)]).optional(),
    tools: z.array(z.object({ name: z.string(), input_schema: z.unknown().optional() }).passthrough()).optional(),
    stream: z.boolean().optional(),
  })
  .passthrough();
export type MessagesRequest = z.infer<typeof MessagesRequestSchema>;

/** The tool results of the request's last user message, in order. */
export function toolResultsOf(req: MessagesRequest): ToolResult[] {
  const last = [...req.messages].reverse().find((m) => m.role === "user");
  if (!last || typeof last.content === "string") return [];
  const out: ToolResult[] = [];
  for (const block of last.content) {
    const r = ToolResultBlock.safeParse(block);
    if (!r.success) continue;
    const c = r.data.content;
    const text =
      c === undefined ? "" : typeof c === "string" ? c : c.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : `[${p.type}]`)).join("\n");
    out.push({ toolUseId: r.data.tool_use_id, isError: r.data.is_error === true, text });
  }
  return out;
}

/** The names of the tools the request offers. */
export const toolNamesOf = (req: MessagesRequest): string[] => (req.tools ?? []).map((t) => t.name);

/** The text of the request's first user message (the task instruction, after any reminders). */
export function userTextsOf(req: MessagesRequest): string[] {
  const first = req.messages.find((m) => m.role === "user");
  if (!first) return [];
  if (typeof first.content === "string") return [first.content];
  return first.content.flatMap((b) => {
    const t = TextBlock.safeParse(b);
    return t.success ? [t.data.text] : [];
  });
}

export interface Reply {
  id: string;
  model: string;
  content: readonly ReplyBlock[];
  usage: { input_tokens: number; output_tokens: number };
}

/**
 * The reply as the stream of server-sent events the Messages API sends: a tool_use block's input
 * arrives as one input_json_delta, a text block's as one text_delta; the stop reason is
 * `tool_use` when the reply calls a tool, else `end_turn`.
 */
export function replyEvents(reply: Reply): string {
  const parts: string[] = [
    event("message_start", {
      message: {
        id: reply.id,
        type: "message",
        role: "assistant",
        model: reply.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: reply.usage.input_tokens, output_tokens: 1 },
      },
    }),
  ];
  reply.content.forEach((block, index) => {
    if (block.type === "text") {
      parts.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
      parts.push(event("content_block_delta", { index, delta: { type: "text_delta", text: block.text } }));
    } else {
      parts.push(event("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }));
      parts.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }));
    }
    parts.push(event("content_block_stop", { index }));
  });
  const stop = reply.content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  parts.push(event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: reply.usage.output_tokens } }));
  parts.push(event("message_stop", {}));
  return parts.join("");
}

/** The reply as one JSON body (a request with `stream: false`). */
export function replyJson(reply: Reply): Record<string, unknown> {
  return {
    id: reply.id,
    type: "message",
    role: "assistant",
    model: reply.model,
    content: reply.content,
    stop_reason: reply.content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: reply.usage,
  };
}

/** An error body as the API sends one. */
export const errorJson = (type: string, message: string): Record<string, unknown> => ({ type: "error", error: { type, message } });

/**
 * Parses server-sent events back into a reply's blocks (what a client of the stream sees). Used
 * to check the framing; throws on a stream that is not well formed.
 */
export function parseReplyEvents(sse: string): { blocks: ReplyBlock[]; stopReason: string | null } {
  const blocks: ReplyBlock[] = [];
  const partial = new Map<number, string>();
  let stopReason: string | null = null;
  let stopped = false;
  for (const { name, data: d } of readSseEvents(sse)) {
    if (stopped) throw new Error(`event after message_stop: ${name}`);
    if (name === "content_block_start") {
      blocks[d.index] = structuredClone(d.content_block);
      partial.set(d.index, "");
    } else if (name === "content_block_delta") {
      const b = blocks[d.index];
      if (!b) throw new Error(`delta for unknown block ${d.index}`);
      if (d.delta.type === "text_delta" && b.type === "text") b.text += d.delta.text;
      else if (d.delta.type === "input_json_delta") partial.set(d.index, (partial.get(d.index) ?? "") + d.delta.partial_json);
      else throw new Error(`delta ${d.delta.type} on a ${b.type} block`);
    } else if (name === "content_block_stop") {
      const b = blocks[d.index];
      if (b?.type === "tool_use") b.input = JSON.parse(partial.get(d.index) || "{}");
    } else if (name === "message_delta") stopReason = d.delta.stop_reason;
    else if (name === "message_stop") stopped = true;
  }
  if (!stopped) throw new Error("stream without message_stop");
  return { blocks, stopReason };
}

/** The Messages API as the endpoint's wire protocol (Claude Code). */
export const MESSAGES_PROTOCOL: WireProtocol = {
  name: "Messages API",
  path: "/v1/messages",
  read(body) {
    const parsed = MessagesRequestSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const request = parsed.data;
    return {
      model: request.model,
      results: toolResultsOf(request),
      serialized: JSON.stringify({ system: request.system ?? "", tools: request.tools ?? [], messages: request.messages }),
      reply: ({ id, content, usage }) => {
        const reply: Reply = { id, model: request.model, content, usage };
        return request.stream === false
          ? { contentType: "application/json", body: JSON.stringify(replyJson(reply)) }
          : { contentType: "text/event-stream", body: replyEvents(reply) };
      },
    };
  },
  error: (type, message) => errorJson({ not_found: "not_found_error", invalid_request: "invalid_request_error", server_error: "api_error" }[type], message),
};

/**
 * The OpenAI Responses protocol as the harness's endpoint speaks it to an agent product (Codex):
 * the request it reads (the tools the product offers, the outputs of the calls it ran) and the
 * streamed answer it writes (server-sent events: response.created, each output item added and
 * done, a message's text as one output_text delta, response.completed with the usage). Pure.
 *
 * A call is a `function_call` (JSON arguments) for a function tool and a `custom_tool_call`
 * (free text: a patch) for a tool the request offers as `type: "custom"`; the product sends back
 * `function_call_output` / `custom_tool_call_output` items with the same `call_id`.
 */
import { z } from "zod";
import type { ReplyBlock, ToolResult } from "./protocol.ts";
import { readSseEvents, sseEvent as event, type WireProtocol } from "./protocol.ts";

const Item = z.object({ type: z.string().optional() }).passthrough();

export const ResponsesRequestSchema = z
  .object({
    model: z.string(),
    input: z.union([z.string(), z.array(Item)]),
    instructions: z.string().optional(),
    tools: z.array(z.object({ type: z.string(), name: z.string().optional() }).passthrough()).optional(),
    stream: z.boolean().optional(),
  })
  .passthrough();
export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;

const CallOutput = z
  .object({
    type: z.enum(["function_call_output", "custom_tool_call_output"]),
    call_id: z.string(),
    output: z.union([z.string(), z.array(z.object({ type: z.string() }).passthrough()), z.object({}).passthrough()]),
  })
  .passthrough();

/** An output's text: a string as it is, content parts' text joined, other parts named by their type. */
function outputText(o: z.infer<typeof CallOutput>["output"]): string {
  if (typeof o === "string") return o;
  if (Array.isArray(o)) return o.map((p) => (typeof p.text === "string" ? p.text : `[${p.type}]`)).join("\n");
  const content = (o as { content?: unknown }).content;
  return typeof content === "string" ? content : JSON.stringify(o);
}

/**
 * The outputs of every call the request's input carries, in order (the whole conversation is
 * sent each time; the player looks up the call it asked for by its id). The protocol has no
 * error flag: how a call ended is read from its text.
 */
export function callOutputsOf(req: ResponsesRequest): ToolResult[] {
  if (typeof req.input === "string") return [];
  const out: ToolResult[] = [];
  for (const item of req.input) {
    const r = CallOutput.safeParse(item);
    if (r.success) out.push({ toolUseId: r.data.call_id, isError: false, text: outputText(r.data.output) });
  }
  return out;
}

/** The tools the request offers: name -> its type (`function`, `custom`, ...). Namespaced and hosted tools are left out. */
export function offeredTools(req: ResponsesRequest): Map<string, string> {
  return new Map((req.tools ?? []).flatMap((t) => (t.name && (t.type === "function" || t.type === "custom") ? [[t.name, t.type] as const] : [])));
}

/** The text of the request's user messages, in order (the instruction is the last one of the first turn). */
export function userTextsOf(req: ResponsesRequest): string[] {
  if (typeof req.input === "string") return [req.input];
  return req.input.flatMap((item) => {
    if (item.type !== "message" || item.role !== "user" || !Array.isArray(item.content)) return [];
    return (item.content as { type?: string; text?: unknown }[]).flatMap((c) => (c.type === "input_text" && typeof c.text === "string" ? [c.text] : []));
  });
}

export interface ResponsesReply {
  id: string;
  model: string;
  content: readonly ReplyBlock[];
  usage: { input_tokens: number; output_tokens: number };
}

/** A reply block as a Responses output item: a call of a `custom` tool carries its `input` field's text as the raw input. */
export function outputItem(block: ReplyBlock, index: number, replyId: string, custom: ReadonlySet<string>): Record<string, unknown> {
  if (block.type === "text")
    return {
      type: "message",
      id: `msg_${replyId}_${index}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: block.text, annotations: [] }],
    };
  if (custom.has(block.name))
    return {
      type: "custom_tool_call",
      id: `ctc_${block.id}`,
      call_id: block.id,
      name: block.name,
      input: String(block.input.input ?? ""),
      status: "completed",
    };
  return { type: "function_call", id: `fc_${block.id}`, call_id: block.id, name: block.name, arguments: JSON.stringify(block.input), status: "completed" };
}

const usageOf = (u: ResponsesReply["usage"]) => ({
  input_tokens: u.input_tokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: u.output_tokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: u.input_tokens + u.output_tokens,
});

/** The reply as one response object (the body of a non-streamed answer and of response.completed). */
export function responseJson(reply: ResponsesReply, custom: ReadonlySet<string>): Record<string, unknown> {
  return {
    id: reply.id,
    object: "response",
    status: "completed",
    model: reply.model,
    output: reply.content.map((b, i) => outputItem(b, i, reply.id, custom)),
    usage: usageOf(reply.usage),
  };
}

/** The reply as the stream of server-sent events a streamed Responses answer is. */
export function responseEvents(reply: ResponsesReply, custom: ReadonlySet<string>): string {
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) => event(type, { ...data, sequence_number: seq++ });
  const parts = [ev("response.created", { response: { id: reply.id, object: "response", status: "in_progress", model: reply.model, output: [] } })];
  reply.content.forEach((block, index) => {
    const item = outputItem(block, index, reply.id, custom);
    if (item.type === "message") {
      parts.push(ev("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", content: [] } }));
      parts.push(ev("response.output_text.delta", { output_index: index, item_id: item.id, content_index: 0, delta: (block as { text: string }).text }));
    } else parts.push(ev("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress" } }));
    parts.push(ev("response.output_item.done", { output_index: index, item }));
  });
  parts.push(ev("response.completed", { response: responseJson(reply, custom) }));
  return parts.join("");
}

/** An error body as the API sends one. */
export const errorBody = (type: string, message: string): Record<string, unknown> => ({ error: { type, message, code: null, param: null } });

/**
 * Parses server-sent events back into the output items of the completed response (what a client
 * of the stream sees). Used to check the framing; throws on a stream that is not well formed.
 */
export function parseResponseEvents(sse: string): { items: Record<string, any>[]; usage: Record<string, number> } {
  const done: Record<string, any>[] = [];
  let completed: Record<string, any> | undefined;
  let created = false;
  for (const { name, data: d } of readSseEvents(sse)) {
    if (completed) throw new Error(`event after response.completed: ${name}`);
    if (name === "response.created") created = true;
    else if (!created) throw new Error(`${name} before response.created`);
    if (name === "response.output_item.done") done[d.output_index] = d.item;
    if (name === "response.completed") completed = d.response;
  }
  if (!completed) throw new Error("stream without response.completed");
  if (JSON.stringify(completed.output) !== JSON.stringify(done)) throw new Error("response.completed's output differs from the items streamed");
  return { items: done, usage: completed.usage };
}

/** The Responses API as the endpoint's wire protocol (Codex). */
export const RESPONSES_PROTOCOL: WireProtocol = {
  name: "Responses API",
  path: "/v1/responses",
  read(body) {
    const parsed = ResponsesRequestSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const request = parsed.data;
    const custom = new Set([...offeredTools(request)].flatMap(([name, type]) => (type === "custom" ? [name] : [])));
    return {
      model: request.model,
      results: callOutputsOf(request),
      serialized: JSON.stringify({ instructions: request.instructions ?? "", tools: request.tools ?? [], input: request.input }),
      reply: ({ id, content, usage }) => {
        const reply: ResponsesReply = { id, model: request.model, content, usage };
        return request.stream === false
          ? { contentType: "application/json", body: JSON.stringify(responseJson(reply, custom)) }
          : { contentType: "text/event-stream", body: responseEvents(reply, custom) };
      },
    };
  },
  error: (type, message) => errorBody({ not_found: "not_found", invalid_request: "invalid_request_error", server_error: "server_error" }[type], message),
};

/**
 * The Gemini API as the harness's endpoint speaks it to an agent product (Gemini CLI): the
 * request it reads (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse` or
 * `:generateContent`; the tools the product declares, the function responses it sends back) and
 * the answer it writes (one `GenerateContentResponse`: as one server-sent event for a streamed
 * request, as the JSON body otherwise). Pure.
 *
 * A call is a `functionCall` part with an id; the product sends back a `functionResponse` part
 * with the same id, whose `response` is `{ output }` for a call that ran and `{ error }` for one
 * that did not (a refusal, or a tool's own failure: which is read from the text, gemini-cli-tools.ts).
 * A request without tool declarations is not the agent's turn (a utility request of the
 * product's own: routing, loop detection, summaries): it is not read, so the endpoint refuses it
 * and the trial ends as a harness error instead of the script answering it.
 */
import { z } from "zod";
import type { ReplyBlock, ToolResult, WireProtocol } from "./protocol.ts";

/** The paths of the two methods the endpoint answers; the model's name is part of the path. */
export const GENERATE_PATH = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

const Part = z.object({}).passthrough();
const Content = z.object({ role: z.string().optional(), parts: z.array(Part).default([]) }).passthrough();
const FunctionDeclaration = z.object({ name: z.string() }).passthrough();

export const GenerateRequestSchema = z
  .object({
    contents: z.array(Content),
    systemInstruction: z.unknown().optional(),
    tools: z.array(z.object({ functionDeclarations: z.array(FunctionDeclaration).optional() }).passthrough()).optional(),
    generationConfig: z.unknown().optional(),
  })
  .passthrough();
export type GenerateRequest = z.infer<typeof GenerateRequestSchema>;

const FunctionResponsePart = z.object({
  functionResponse: z
    .object({
      id: z.string().optional(),
      name: z.string(),
      response: z.record(z.string(), z.unknown()).optional(),
    })
    .passthrough(),
});

/** The names of the functions the request declares, in order. */
export function declaredFunctions(req: GenerateRequest): string[] {
  return (req.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
}

/** A function response's text: its `error` or `output` as written, anything else as JSON. */
function responseText(response: Record<string, unknown> | undefined): { isError: boolean; text: string } {
  if (response && "error" in response) return { isError: true, text: typeof response.error === "string" ? response.error : JSON.stringify(response.error) };
  if (response && typeof response.output === "string") return { isError: false, text: response.output };
  return { isError: false, text: JSON.stringify(response ?? {}) };
}

/**
 * The function responses of the request's last user turn, in order (the whole conversation is
 * sent each time; the player looks up the call it asked for by its id).
 */
export function functionResponsesOf(req: GenerateRequest): ToolResult[] {
  const last = [...req.contents].reverse().find((c) => c.role === "user" || c.role === undefined);
  if (!last) return [];
  return last.parts.flatMap((p) => {
    const r = FunctionResponsePart.safeParse(p);
    if (!r.success) return [];
    const { isError, text } = responseText(r.data.functionResponse.response);
    return [{ toolUseId: r.data.functionResponse.id ?? "", isError, text }];
  });
}

/** The text parts of the request's user turns, in order (the instruction is the last one of the first turn). */
export function userTextsOf(req: GenerateRequest): string[] {
  return req.contents.flatMap((c) =>
    c.role === "user" ? c.parts.flatMap((p) => (typeof (p as { text?: unknown }).text === "string" ? [(p as { text: string }).text] : [])) : [],
  );
}

export interface GenerateReply {
  id: string;
  model: string;
  content: readonly ReplyBlock[];
  usage: { input_tokens: number; output_tokens: number };
}

/** A reply block as a part of the model's content: text, or a function call with its id. */
export const partOf = (block: ReplyBlock): Record<string, unknown> =>
  block.type === "text" ? { text: block.text } : { functionCall: { id: block.id, name: block.name, args: block.input } };

/** The reply as one GenerateContentResponse. */
export function generateResponse(reply: GenerateReply): Record<string, unknown> {
  return {
    candidates: [{ content: { role: "model", parts: reply.content.map(partOf) }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: reply.usage.input_tokens,
      candidatesTokenCount: reply.usage.output_tokens,
      totalTokenCount: reply.usage.input_tokens + reply.usage.output_tokens,
    },
    modelVersion: reply.model,
    responseId: reply.id,
  };
}

/** The reply as the server-sent events of a streamed answer (`alt=sse`): one event, the whole response. */
export const generateEvents = (reply: GenerateReply): string => `data: ${JSON.stringify(generateResponse(reply))}\r\n\r\n`;

/** The responses a stream carries, read back (each `data:` line's JSON); throws on a line that is not one. */
export function parseGenerateEvents(sse: string): Record<string, any>[] {
  return sse
    .split(/\r?\n\r?\n/)
    .filter((chunk) => chunk.trim())
    .map((chunk) => {
      if (!chunk.startsWith("data: ")) throw new Error(`malformed event: ${JSON.stringify(chunk)}`);
      return JSON.parse(chunk.slice(6)) as Record<string, any>;
    });
}

const STATUS = {
  not_found: [404, "NOT_FOUND"],
  invalid_request: [400, "INVALID_ARGUMENT"],
  server_error: [500, "INTERNAL"],
} as const;

/** The Gemini API (generateContent) as the endpoint's wire protocol (Gemini CLI). */
export const GEMINI_PROTOCOL: WireProtocol = {
  name: "Gemini API",
  path: "/v1beta/models/<model>:streamGenerateContent or :generateContent",
  paths: GENERATE_PATH,
  read(body, url) {
    const route = url ? GENERATE_PATH.exec(url.pathname) : null;
    const parsed = GenerateRequestSchema.safeParse(body);
    if (!route || !parsed.success) return undefined;
    const request = parsed.data;
    if (declaredFunctions(request).length === 0) return undefined;
    const model = decodeURIComponent(route[1]!);
    const streamed = route[2] === "streamGenerateContent";
    return {
      model,
      results: functionResponsesOf(request),
      serialized: JSON.stringify({ systemInstruction: request.systemInstruction ?? "", tools: request.tools ?? [], contents: request.contents }),
      reply: ({ id, content, usage }) => {
        const reply: GenerateReply = { id, model, content, usage };
        return streamed
          ? { contentType: "text/event-stream", body: generateEvents(reply) }
          : { contentType: "application/json", body: JSON.stringify(generateResponse(reply)) };
      },
    };
  },
  error: (type, message) => ({ error: { code: STATUS[type][0], message, status: STATUS[type][1] } }),
};

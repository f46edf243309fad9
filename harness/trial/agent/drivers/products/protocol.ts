/**
 * What the harness's model endpoint needs of a wire protocol (Anthropic Messages for Claude
 * Code, OpenAI Responses for Codex, the Gemini API for Gemini CLI): where requests come, how
 * one is read (the tool results it carries, whether it wants a stream, its text for the token
 * count) and how an answer or an error is written. Pure.
 */

/** A block of the model's answer: text, or a tool call. */
export type ReplyBlock = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** A tool result the product sent back. */
export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  /** The result's text (text parts joined; other parts named by their type). */
  text: string;
}

export interface ReadRequest {
  model: string;
  /** The results of the calls the product ran, as it sent them back. */
  results: ToolResult[];
  /** The request as the model sees it (system prompt, tools, conversation), for the token count. */
  serialized: string;
  /** The answer to this request: content type and body. */
  reply(answer: { id: string; content: readonly ReplyBlock[]; usage: { input_tokens: number; output_tokens: number } }): { contentType: string; body: string };
}

export interface WireProtocol {
  /** The API's name, for error messages. */
  name: string;
  /** The one path the endpoint answers (POST); with `paths`, how those paths are named in errors. */
  path: string;
  /** The paths the endpoint answers (POST) when they are more than one (the model's name is part of the Gemini API's path). */
  paths?: RegExp;
  /** The request read, or undefined when the body is not one of this protocol's requests; `url` is the request's. */
  read(body: unknown, url?: URL): ReadRequest | undefined;
  /** An error body as the API sends one. */
  error(type: "not_found" | "invalid_request" | "server_error", message: string): unknown;
}

/** One server-sent event whose data is a JSON object carrying its own type (both APIs stream so). */
export const sseEvent = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * Server-sent events read back, in order: each event's name and its JSON data. Used to check the
 * framing; throws on an event without a name or data, or whose data names another type.
 */
export function readSseEvents(sse: string): { name: string; data: Record<string, any> }[] {
  const out: { name: string; data: Record<string, any> }[] = [];
  for (const chunk of sse.split("\n\n")) {
    if (!chunk.trim()) continue;
    const lines = chunk.split("\n");
    const name = lines.find((l) => l.startsWith("event: "))?.slice(7);
    const data = lines.find((l) => l.startsWith("data: "))?.slice(6);
    if (!name || data === undefined) throw new Error(`malformed event: ${JSON.stringify(chunk)}`);
    const d = JSON.parse(data) as Record<string, any>;
    if (d.type !== name) throw new Error(`event ${name} carries type ${d.type}`);
    out.push({ name, data: d });
  }
  return out;
}

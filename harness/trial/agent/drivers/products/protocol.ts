/**
 * What the harness's model endpoint needs of a wire protocol (Anthropic Messages for Claude
 * Code, OpenAI Responses for Codex): where requests come, how one is read (the tool results it
 * carries, whether it wants a stream, its text for the token count) and how an answer or an
 * error is written. Pure.
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
  /** The one path the endpoint answers (POST). */
  path: string;
  /** The request read, or undefined when the body is not one of this protocol's requests. */
  read(body: unknown): ReadRequest | undefined;
  /** An error body as the API sends one. */
  error(type: "not_found" | "invalid_request" | "server_error", message: string): unknown;
}

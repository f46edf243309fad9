/**
 * A local Anthropic Messages server for end-to-end tests of the real-model driver with a
 * registry model (anthropic/...) pointed at GATEBENCH_BASE_URL. It speaks what pi-ai's
 * `anthropic-messages` provider (through `@anthropic-ai/sdk`) sends and reads:
 * `POST <base>/v1/messages` with `stream: true`, answered with named SSE events
 * (message_start with input usage, content blocks with text / input_json deltas,
 * message_delta with stop_reason and output usage, message_stop), plus a `ping` that a
 * client must ignore.
 */
import {
  fragments,
  splitInTwo,
  startRecordingServer,
  type FakeModelServer,
  type FakeProtocol,
  type Responder,
  type StreamedReply,
} from "./fake-openai-server.ts";

export type AnthropicContentBlock =
  | { type: "text"; text: string; cache_control?: unknown }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "tool_result"; tool_use_id: string; content: string | unknown[]; is_error?: boolean; cache_control?: unknown };

/** The parts of a Messages request body the tests look at. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: { type: "text"; text: string }[];
  messages: { role: "user" | "assistant"; content: string | AnthropicContentBlock[] }[];
  tools?: { name: string; description?: string; input_schema: { type: "object"; properties: unknown; required?: string[] } }[];
  [key: string]: unknown;
}

export type FakeAnthropicServer = FakeModelServer<AnthropicRequestBody>;

function anthropicEvents(reply: StreamedReply, model: string, index: number): [string, object][] {
  const u = reply.usage;
  const cacheRead = u.cached_tokens ?? 0;
  const cacheWrite = u.cache_write_tokens ?? 0;
  const events: [string, object][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: `msg_${index + 1}`,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          // Anthropic's input_tokens excludes what was read from or written to the cache.
          usage: {
            input_tokens: u.prompt_tokens - cacheRead - cacheWrite,
            cache_read_input_tokens: cacheRead,
            cache_creation_input_tokens: cacheWrite,
            output_tokens: 1,
          },
        },
      },
    ],
    ["ping", { type: "ping" }],
  ];
  let block = 0;
  const text = reply.text ?? "";
  if (text) {
    events.push(["content_block_start", { type: "content_block_start", index: block, content_block: { type: "text", text: "" } }]);
    for (const piece of splitInTwo(text))
      events.push(["content_block_delta", { type: "content_block_delta", index: block, delta: { type: "text_delta", text: piece } }]);
    events.push(["content_block_stop", { type: "content_block_stop", index: block }]);
    block += 1;
  }
  if (reply.kind === "tool_call") {
    events.push([
      "content_block_start",
      { type: "content_block_start", index: block, content_block: { type: "tool_use", id: reply.id, name: reply.name, input: {} } },
    ]);
    for (const piece of fragments(JSON.stringify(reply.args)))
      events.push(["content_block_delta", { type: "content_block_delta", index: block, delta: { type: "input_json_delta", partial_json: piece } }]);
    events.push(["content_block_stop", { type: "content_block_stop", index: block }]);
  }
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: reply.kind === "tool_call" ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: u.completion_tokens },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

export const ANTHROPIC_PROTOCOL: FakeProtocol<AnthropicRequestBody> = {
  basePath: "",
  route: "/v1/messages",
  encode: (reply, body, index) =>
    anthropicEvents(reply, body.model, index)
      .map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
      .join(""),
};

export function startFakeAnthropicServer(respond: Responder<AnthropicRequestBody>): Promise<FakeAnthropicServer> {
  return startRecordingServer(ANTHROPIC_PROTOCOL, respond);
}

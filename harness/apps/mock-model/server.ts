/**
 * A local model server that speaks a provider's streaming protocol, for `npm run mock-model` and
 * the end-to-end tests of the real-model driver (test/support/fake-*-server.ts wrap it). The
 * OpenAI Chat Completions protocol is what pi-ai's `openai-completions` provider (through the
 * `openai` SDK) sends and reads: `POST <base>/chat/completions` with `stream: true`, answered as
 * server-sent events (`data: <chunk>\n\n` ... `data: [DONE]\n\n`); tool-call arguments arrive in
 * fragments, and when the request asks `stream_options.include_usage` a last chunk with
 * `choices: []` carries `usage`. `GET <base>/models` lists the models the server was given (a
 * 404 when it was given none, as many servers do). Every request is recorded so a test can
 * assert what the agent sent.
 *
 *   const server = await startFakeOpenAIServer((req, n) => n === 0 ? toolCallReply(...) : textReply(...));
 *   process.env.GATEBENCH_BASE_URL = server.baseUrl;   // http://127.0.0.1:<port>/v1
 *
 * The HTTP plumbing (listen, record, close) is shared by every protocol through
 * startRecordingServer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Token usage of one reply, in OpenAI's terms. */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** prompt_tokens_details.cached_tokens: the part of prompt_tokens read from the cache. */
  cached_tokens?: number;
  /** Anthropic only: cache_creation_input_tokens, also part of prompt_tokens. */
  cache_write_tokens?: number;
}

/** A reply that a protocol encodes as its event stream. */
export type StreamedReply =
  | { kind: "tool_call"; id: string; name: string; args: Record<string, unknown>; text?: string; usage: FakeUsage }
  | { kind: "text"; text: string; usage: FakeUsage };

/** What the server answers to one request. */
export type FakeReply =
  | StreamedReply
  | { kind: "http_error"; status: number; body: string }
  /** A 200 whose body is not the promised event stream. */
  | { kind: "garbage"; contentType: string; body: string }
  /** Accept the request and never answer. */
  | { kind: "hang" };

export interface RecordedRequest<B = ChatRequestBody> {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The parsed JSON body (undefined when it was not JSON). */
  body: B | undefined;
}

/** The parts of a Chat Completions request body the tests look at. */
export interface ChatRequestBody {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: ChatMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters: unknown; strict?: boolean } }[];
  [key: string]: unknown;
}

export type ChatMessage =
  | { role: "system" | "developer" | "user"; content: string | unknown[] }
  | { role: "assistant"; content: string | null; tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[] }
  | { role: "tool"; content: string; tool_call_id: string };

export type Responder<B = ChatRequestBody> = (request: RecordedRequest<B>, index: number) => FakeReply;

export interface FakeModelServer<B = ChatRequestBody> {
  /** The server's base URL, what GATEBENCH_BASE_URL should hold. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest<B>[];
  close(): Promise<void>;
}
export type FakeOpenAIServer = FakeModelServer<ChatRequestBody>;

/** How one provider protocol is served: where requests go and how a reply is streamed. */
export interface FakeProtocol<B> {
  /** Path prefix of the base URL the client is given ("/v1" for OpenAI, "" for Anthropic). */
  basePath: string;
  /** Full request path the client posts to. */
  route: string;
  /** Where the server lists its models (GET), when the protocol has such a route. */
  modelsRoute?: string;
  /** The SSE body for one reply to one request. */
  encode(reply: StreamedReply, body: B, index: number): string;
}

export function toolCallReply(name: string, args: Record<string, unknown>, usage: FakeUsage, id = "call_1"): FakeReply {
  return { kind: "tool_call", id, name, args, usage };
}

export function textReply(text: string, usage: FakeUsage): FakeReply {
  return { kind: "text", text, usage };
}

/** Text in two pieces, so the client has to join deltas. */
export function splitInTwo(text: string): string[] {
  const cut = Math.ceil(text.length / 2);
  return [text.slice(0, cut), text.slice(cut)].filter((p) => p.length > 0);
}

/** Tool-call arguments in small fragments, as real servers stream them. */
export function fragments(json: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out;
}

/** The chunks OpenAI streams for one reply: role, content or tool-call fragments, finish, usage. */
export function openAIChunks(reply: StreamedReply, model: string, includeUsage: boolean, completionId: string): object[] {
  const chunk = (delta: object, finish: string | null = null) => ({
    id: completionId,
    object: "chat.completion.chunk",
    created: 0,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: object[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of splitInTwo(reply.text ?? "")) chunks.push(chunk({ content: piece }));
  if (reply.kind === "tool_call") {
    chunks.push(chunk({ tool_calls: [{ index: 0, id: reply.id, type: "function", function: { name: reply.name, arguments: "" } }] }));
    for (const piece of fragments(JSON.stringify(reply.args))) chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    chunks.push(chunk({}, "tool_calls"));
  } else {
    chunks.push(chunk({}, "stop"));
  }
  if (includeUsage) {
    const u = reply.usage;
    chunks.push({
      id: completionId,
      object: "chat.completion.chunk",
      created: 0,
      model,
      choices: [],
      usage: {
        prompt_tokens: u.prompt_tokens,
        completion_tokens: u.completion_tokens,
        total_tokens: u.prompt_tokens + u.completion_tokens,
        prompt_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
      },
    });
  }
  return chunks;
}

export const OPENAI_PROTOCOL: FakeProtocol<ChatRequestBody> = {
  basePath: "/v1",
  route: "/v1/chat/completions",
  modelsRoute: "/v1/models",
  encode: (reply, body, index) =>
    openAIChunks(reply, body.model, body.stream_options?.include_usage === true, `chatcmpl-${index + 1}`)
      .map((c) => `data: ${JSON.stringify(c)}\n\n`)
      .join("") + "data: [DONE]\n\n",
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson<B>(text: string): B | undefined {
  try {
    return JSON.parse(text) as B;
  } catch {
    return undefined;
  }
}

async function handle<B>(
  req: IncomingMessage,
  res: ServerResponse,
  protocol: FakeProtocol<B>,
  requests: RecordedRequest<B>[],
  respond: Responder<B>,
  models: readonly string[] | undefined,
): Promise<void> {
  const raw = await readBody(req);
  const recorded: RecordedRequest<B> = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: parseJson<B>(raw) };
  const path = recorded.path.split("?")[0];
  if (recorded.method === "GET" && protocol.modelsRoute && path === protocol.modelsRoute && models) {
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "gatebench" })) }));
    return;
  }
  const index = requests.length;
  requests.push(recorded);
  if (recorded.method !== "POST" || path !== protocol.route || !recorded.body) {
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: `fake server: no route for ${recorded.method} ${recorded.path}` } }));
    return;
  }
  const reply = respond(recorded, index);
  switch (reply.kind) {
    case "hang":
      return;
    case "http_error":
      res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
      return;
    case "garbage":
      res.writeHead(200, { "content-type": reply.contentType }).end(reply.body);
      return;
    case "tool_call":
    case "text":
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(protocol.encode(reply, recorded.body, index));
      return;
  }
}

export interface ServeOptions {
  /** The models GET <base>/models lists; without them the route answers 404 like an unknown path. */
  models?: readonly string[];
  /** 127.0.0.1 unless given. */
  host?: string;
  /** A random free port unless given. */
  port?: number;
}

/** Listens on 127.0.0.1 (a random port unless given), records every request, answers with `respond`. */
export async function startRecordingServer<B>(protocol: FakeProtocol<B>, respond: Responder<B>, opts: ServeOptions = {}): Promise<FakeModelServer<B>> {
  const requests: RecordedRequest<B>[] = [];
  const server = createServer((req, res) => {
    handle(req, res, protocol, requests, respond, opts.models).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(`fake server failed: ${String(e)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? "127.0.0.1";
  return {
    baseUrl: `http://${host.includes(":") ? `[${host}]` : host}:${port}${protocol.basePath}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests keep their sockets open; close them so close() returns.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function startFakeOpenAIServer(respond: Responder<ChatRequestBody>, opts: ServeOptions = {}): Promise<FakeOpenAIServer> {
  return startRecordingServer(OPENAI_PROTOCOL, respond, opts);
}

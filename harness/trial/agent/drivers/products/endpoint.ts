/**
 * The harness as an agent product's model: an HTTP server on a unix socket speaking the
 * product's API (protocol.ts: Anthropic Messages `POST /v1/messages`, OpenAI Responses
 * `POST /v1/responses`, the Gemini API's `generateContent`; streamed or not), bound into the
 * trial's sandbox, where a small forwarder makes it reachable at 127.0.0.1 (the sandbox has no
 * other network). Every request is answered by the scripted player; the call the request's tool result ended is
 * handed to `onCallEnded` (the harness measures the world then: the product is waiting for the
 * model, so nothing runs) before the answer is sent. Tokens are counted over what the requests
 * and answers carry.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { TokenMeter as TurnEstimator } from "../../tokens.ts";
import { MESSAGES_PROTOCOL } from "./anthropic.ts";
import type { WireProtocol } from "./protocol.ts";
import type { EndedCall, ScriptedPlayer } from "./player.ts";

const MAX_BODY = 64 * 1024 * 1024;

export interface EndpointOptions {
  player: ScriptedPlayer;
  /** Called with each ended call before the answer that follows it is sent (awaited). */
  onCallEnded: (call: EndedCall) => Promise<void>;
  /** Called for each answered turn (after onCallEnded). */
  onTurn?: (turn: number) => void;
  /** The API the product speaks (default: Anthropic Messages). */
  protocol?: WireProtocol;
}

export interface EndpointStats {
  requests: number;
  turns: number;
  /** Requests that were not the Messages API (answered 404). */
  other: string[];
  /** Requests the endpoint could not read (answered 400) or failed to answer (500). */
  errors: string[];
}

export class ModelEndpoint {
  /** The folder holding the socket (bound into the sandbox), readable by the sandbox users. */
  readonly dir: string;
  readonly socket: string;
  readonly stats: EndpointStats = { requests: 0, turns: 0, other: [], errors: [] };
  readonly meter = new TurnEstimator();
  private readonly server: http.Server;
  /** Requests are answered one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();

  private constructor(private readonly opts: EndpointOptions) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), "gatebench-endpoint-"));
    chmodSync(this.dir, 0o755);
    this.socket = path.join(this.dir, "model.sock");
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  static async start(opts: EndpointOptions): Promise<ModelEndpoint> {
    const e = new ModelEndpoint(opts);
    await new Promise<void>((resolve, reject) => {
      e.server.once("error", reject);
      e.server.listen(e.socket, () => resolve());
    });
    // The sandbox user connects to it: a socket needs write permission to connect.
    chmodSync(e.socket, 0o666);
    return e;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      this.queue = this.queue.then(() => this.answer(req, body, res)).catch(() => undefined);
    });
  }

  private async answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): Promise<void> {
    this.stats.requests += 1;
    const protocol = this.opts.protocol ?? MESSAGES_PROTOCOL;
    const url = new URL(req.url ?? "/", "http://endpoint");
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    };
    if (req.method !== "POST" || !(protocol.paths ? protocol.paths.test(url.pathname) : url.pathname === protocol.path)) {
      this.stats.other.push(`${req.method} ${url.pathname}`.slice(0, 200));
      return send(404, protocol.error("not_found", `the harness's endpoint answers POST ${protocol.path} only`));
    }
    let request;
    try {
      request = protocol.read(JSON.parse(body), url);
    } catch {
      request = undefined;
    }
    if (!request) {
      this.stats.errors.push(`a request that is not a ${protocol.name} request`);
      return send(400, protocol.error("invalid_request", `not a ${protocol.name} request`));
    }
    // After a failure the script's state is unknown: every further request is refused in a way
    // the product does not retry, and the trial ends as an error (stats.errors).
    if (this.stats.errors.length > 0) return send(400, protocol.error("invalid_request", "the harness's endpoint failed earlier in this session"));
    try {
      const answer = this.opts.player.answer(request.results);
      if (answer.ended) await this.opts.onCallEnded(answer.ended);
      this.stats.turns += 1;
      this.opts.onTurn?.(this.stats.turns);
      const used = this.meter.recordSerialized(request.serialized, JSON.stringify({ role: "assistant", content: answer.content }));
      const out = request.reply({
        id: `msg_gatebench_${this.stats.turns}`,
        content: answer.content,
        usage: { input_tokens: used.input, output_tokens: used.output },
      });
      res.writeHead(200, { "content-type": out.contentType, ...(out.contentType === "text/event-stream" ? { "cache-control": "no-cache" } : {}) });
      res.end(out.body);
    } catch (e) {
      this.stats.errors.push(`answering turn ${this.stats.turns + 1}: ${(e as Error).message}`.slice(0, 500));
      send(500, protocol.error("server_error", "the harness failed to answer"));
    }
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

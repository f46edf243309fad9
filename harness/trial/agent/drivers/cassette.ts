/**
 * Recorded sessions of real models ("cassettes"): `eval --record DIR` keeps every request a
 * model driver sends and the response it got, per trial; `eval --replay DIR` runs the matrix
 * offline with the recording as a deterministic driver (no network, no key). The agent keeps
 * its model's label; the cassette's fingerprint joins the record's fingerprint.
 *
 * Layout of DIR:
 *   cassette.json                 the manifest: format, version, when, the run, every model
 *                                 (its pi-ai description without the server) and the matrix
 *                                 it was recorded with (tasks, gates, approvers, epochs)
 *   sessions/<trial_id>.json      one trial: its identity, then every turn in order:
 *                                 { turn, digest, request, response }
 *
 * A response is keyed by the digest of its request: the sha256 of the canonical JSON (sorted
 * keys) of what the provider would receive, redacted, minus volatile fields. Canonical: the
 * model (provider, api, id), the system prompt, the tools (name, description, schema) and every
 * message (user text; assistant text, thinking and tool calls with their ids and arguments;
 * tool results with their call id, tool, error flag and content); left out: timestamps, usage,
 * response ids, stop reasons, the API key, the base URL (a local server's port changes from run
 * to run) and the transport options. Everything written is redacted with harness/text/redact
 * (identifiers kept); the digest is taken over the redacted request, so a replayed response
 * whose text the redactor changed still meets its next request (redaction is idempotent).
 *
 * Replay: the n-th request of a trial is looked up by its digest among the trial's own recorded
 * turns, then among the recorded trials of the same task, model and epoch (in trial id order),
 * so a recording made under one gate serves another gate for as long as the conversation is the
 * same. A request found nowhere means a gate decided differently than in the recording (or a
 * tool printed something else): the trial is `diverged`, naming the turn and the tool call whose
 * result differs from the closest recorded request, and needs the live model again.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StreamFn } from "@mariozechner/pi-agent-core";
import {
  createAssistantMessageEventStream,
  type AssistantMessage,
  type AssistantMessageEventStream,
  type Context,
  type Message,
  type Model,
} from "@mariozechner/pi-ai";
import { z } from "zod";
import { stableJson } from "../../../../kernel/digest.ts";
import { InputError } from "../../../../kernel/errors.ts";
import { jsonText, redact, redactDeep, summarizeCall } from "../../../text/redact/redact.ts";
import { checkTree, readFileWithin, type Within } from "../../../sandbox/files/contained.ts";
import { priceOf } from "../prices.ts";
import { ProviderMeter } from "./meters.ts";
import type { Divergence, Driver, DriverSpec, TrialContext } from "./types.ts";

export const CASSETTE_FORMAT = "gatebench-cassette";
export const CASSETTE_VERSION = 1;
export const MANIFEST_FILE = "cassette.json";
export const SESSIONS_DIR = "sessions";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A model as the replay needs it: what the canonical request names, and what the agent loop reads. */
export interface ModelDescription {
  id: string;
  name: string;
  api: string;
  provider: string;
  reasoning: boolean;
  input: string[];
  contextWindow: number;
  maxTokens: number;
}

export interface CassetteMatrix {
  tasks: string[];
  gates: string[];
  approvers: string[];
  epochs: number;
  trials: number;
}

export interface CassetteManifest {
  format: typeof CASSETTE_FORMAT;
  version: typeof CASSETTE_VERSION;
  created: string;
  run_id: string;
  /** By agent label (`openai-compatible/mock/careless-cleanup`). */
  models: Record<string, ModelDescription>;
  matrix: CassetteMatrix;
  /** GATEBENCH_BASE_URL when recorded (redacted), for the reader; never used to replay. */
  base_url: string | null;
}

/** What the provider would receive, without what changes from run to run. */
export interface CanonicalRequest {
  model: { provider: string; api: string; id: string };
  system: string;
  tools: { name: string; description: string; parameters: Json }[];
  messages: Json[];
}

/** A response as the agent loop received it, without its timestamp. */
export interface RecordedResponse {
  content: AssistantMessage["content"];
  stopReason: AssistantMessage["stopReason"];
  usage: AssistantMessage["usage"];
  api: string;
  provider: string;
  model: string;
  errorMessage?: string;
}

export interface CassetteTurn {
  turn: number;
  digest: string;
  request: CanonicalRequest;
  response: RecordedResponse;
}

export interface CassetteSession {
  trial_id: string;
  task: string;
  agent: string;
  gate: string;
  approver: string;
  epoch: number;
  turns: CassetteTurn[];
}

function blocksOf(content: unknown): Json {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return [];
  return content.map((c: Record<string, unknown>): Json => {
    if (c.type === "text") return { type: "text", text: String(c.text ?? "") };
    if (c.type === "thinking") return { type: "thinking", thinking: String(c.thinking ?? "") };
    if (c.type === "toolCall")
      return { type: "toolCall", id: String(c.id), name: String(c.name), arguments: JSON.parse(JSON.stringify(c.arguments ?? {})) as Json };
    if (c.type === "image")
      return {
        type: "image",
        mimeType: String(c.mimeType ?? ""),
        sha256: createHash("sha256")
          .update(String(c.data ?? ""))
          .digest("hex"),
      };
    return { type: String(c.type) };
  });
}

function canonicalMessage(m: Message): Json {
  if (m.role === "user") return { role: "user", content: blocksOf(m.content) };
  if (m.role === "assistant") return { role: "assistant", content: blocksOf(m.content) };
  return { role: "toolResult", toolCallId: m.toolCallId, toolName: m.toolName, isError: m.isError, content: blocksOf(m.content) };
}

/** The request a provider would receive for this turn, canonical and redacted. */
export function canonicalRequest(model: Pick<Model<any>, "provider" | "api" | "id">, context: Context): CanonicalRequest {
  return redactDeep({
    model: { provider: model.provider, api: String(model.api), id: model.id },
    system: context.systemPrompt ?? "",
    tools: (context.tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: JSON.parse(JSON.stringify(t.parameters)) as Json })),
    messages: context.messages.map(canonicalMessage),
  });
}

/** The key of a response: sha256 of the canonical request's sorted-key JSON. */
export function requestDigest(request: CanonicalRequest): string {
  return createHash("sha256").update(stableJson(request)).digest("hex");
}

function recordedResponse(m: AssistantMessage): RecordedResponse {
  return {
    content: m.content,
    stopReason: m.stopReason,
    usage: m.usage,
    api: String(m.api),
    provider: m.provider,
    model: m.model,
    ...(m.errorMessage ? { errorMessage: m.errorMessage } : {}),
  };
}

function describeModel(m: Model<any>): ModelDescription {
  return {
    id: m.id,
    name: m.name,
    api: String(m.api),
    provider: m.provider,
    reasoning: m.reasoning,
    input: [...m.input],
    contextWindow: m.contextWindow,
    maxTokens: m.maxTokens,
  };
}

/**
 * The file of a trial's session: its id (a matrix's trial ids are file names already; any other
 * character is percent-encoded), or for an id too long for a file name a prefix and a hash.
 */
export function sessionFile(dir: string, trialId: string): string {
  const safe = trialId.replace(/[^\w.@:+=%-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  const name = safe.length <= 200 ? safe : `${safe.slice(0, 150)}~${createHash("sha256").update(trialId).digest("hex").slice(0, 16)}`;
  return join(dir, SESSIONS_DIR, `${name}.json`);
}

/** `--record DIR`: every model request and response of the run, one session file per trial. */
export class CassetteWriter {
  /** Trials whose responses held text shaped like a secret (redacted: their replay runs the redacted text). */
  readonly notes: string[] = [];
  private readonly models = new Map<string, ModelDescription>();
  private readonly sessions = new Map<string, CassetteSession>();

  constructor(
    readonly dir: string,
    private readonly info: { runId: string; matrix: CassetteMatrix; baseUrl: string | undefined; now?: () => Date },
  ) {
    if (existsSync(join(dir, MANIFEST_FILE)) || (existsSync(join(dir, SESSIONS_DIR)) && readdirSync(join(dir, SESSIONS_DIR)).length > 0))
      throw new InputError("--record", dir, "an empty or new folder for the recording (it holds a recording already)");
    mkdirSync(join(dir, SESSIONS_DIR), { recursive: true });
    this.writeManifest();
  }

  private writeManifest(): void {
    const manifest: CassetteManifest = {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      created: (this.info.now ?? (() => new Date()))().toISOString(),
      run_id: this.info.runId,
      models: Object.fromEntries([...this.models].sort(([a], [b]) => a.localeCompare(b))),
      matrix: this.info.matrix,
      base_url: this.info.baseUrl ? redact(this.info.baseUrl) : null,
    };
    writeFileSync(join(this.dir, MANIFEST_FILE), `${jsonText(manifest, 2)}\n`);
  }

  /** The driver of one trial, its every turn written to the trial's session file as it ends. */
  attach(driver: Driver, trial: TrialContext & { task: string; agent: string }): Driver {
    if (!this.models.has(trial.agent)) {
      this.models.set(trial.agent, describeModel(driver.model));
      this.writeManifest();
    }
    const session: CassetteSession = {
      trial_id: trial.trialId,
      task: trial.task,
      agent: trial.agent,
      gate: trial.gate,
      approver: trial.approver,
      epoch: trial.attempt,
      turns: [],
    };
    this.sessions.set(trial.trialId, session);
    const file = sessionFile(this.dir, trial.trialId);
    writeFileSync(file, `${jsonText(session, 2)}\n`);
    let turn = 0;
    const streamFn: StreamFn = (model, context, options) => {
      const n = ++turn;
      const request = canonicalRequest(model, context);
      const stream = driver.streamFn(model, context, options);
      const keep = (s: AssistantMessageEventStream) =>
        s.result().then(
          (message) => {
            const response = recordedResponse(message);
            const shown = redactDeep(response);
            if (stableJson(shown) !== stableJson(response))
              this.notes.push(
                `${trial.trialId}: turn ${n}: the response held text shaped like a secret; it is recorded redacted, and its replay runs the redacted text`,
              );
            session.turns.push({ turn: n, digest: requestDigest(request), request, response: shown });
            writeFileSync(file, `${jsonText(session, 2)}\n`);
          },
          () => undefined,
        );
      if (stream instanceof Promise) void stream.then(keep, () => undefined);
      else void keep(stream);
      return stream;
    };
    return { ...driver, streamFn };
  }

  /** Trials recorded so far. */
  get recorded(): number {
    return this.sessions.size;
  }
}

const ModelDescriptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  api: z.string(),
  provider: z.string(),
  reasoning: z.boolean(),
  input: z.array(z.string()),
  contextWindow: z.number(),
  maxTokens: z.number(),
});

const ManifestSchema = z.object({
  format: z.literal(CASSETTE_FORMAT),
  version: z.literal(CASSETTE_VERSION),
  created: z.string(),
  run_id: z.string(),
  models: z.record(z.string(), ModelDescriptionSchema),
  matrix: z.object({
    tasks: z.array(z.string()),
    gates: z.array(z.string()),
    approvers: z.array(z.string()),
    epochs: z.number().int().min(1),
    trials: z.number().int().min(1),
  }),
  base_url: z.string().nullable(),
});

const SessionSchema = z.object({
  trial_id: z.string(),
  task: z.string(),
  agent: z.string(),
  gate: z.string(),
  approver: z.string(),
  epoch: z.number().int().min(1),
  turns: z.array(
    z.object({
      turn: z.number().int().min(1),
      digest: z.string().regex(/^[0-9a-f]{64}$/),
      request: z.object({
        model: z.object({ provider: z.string(), api: z.string(), id: z.string() }),
        system: z.string(),
        tools: z.array(z.any()),
        messages: z.array(z.any()),
      }),
      response: z.object({
        content: z.array(z.any()),
        stopReason: z.string(),
        usage: z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), totalTokens: z.number() }).passthrough(),
        api: z.string(),
        provider: z.string(),
        model: z.string(),
        errorMessage: z.string().optional(),
      }),
    }),
  ),
});

function readJson(file: string, shown: string, within: Within): unknown {
  const text = readFileWithin(file, within).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(shown, "(json)", `a JSON file written by eval --record (${(e as Error).message.split("\n")[0]})`);
  }
}

function schemaProblem(shown: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): InputError {
  const i = issues[0];
  return new InputError(shown, i?.path.map(String).join(".") || "(root)", `${i?.message ?? "a valid value"} (a file written by eval --record)`);
}

/** A recording read back (`--replay DIR`). */
export class Cassette {
  readonly fingerprint: string;
  private readonly byTrial = new Map<string, CassetteSession>();
  private readonly pools = new Map<string, CassetteSession[]>();

  private constructor(
    readonly dir: string,
    readonly manifest: CassetteManifest,
    readonly sessions: readonly CassetteSession[],
  ) {
    const h = createHash("sha256").update(stableJson(manifest.models));
    for (const s of [...sessions].sort((a, b) => a.trial_id.localeCompare(b.trial_id))) {
      this.byTrial.set(s.trial_id, s);
      const key = poolKey(s.task, s.agent, s.epoch);
      this.pools.set(key, [...(this.pools.get(key) ?? []), s]);
      h.update(s.trial_id).update("\0");
      for (const t of s.turns) h.update(t.digest).update(stableJson(t.response)).update("\0");
    }
    this.fingerprint = h.digest("hex").slice(0, 16);
  }

  static load(dir: string): Cassette {
    const manifestFile = join(dir, MANIFEST_FILE);
    if (!existsSync(manifestFile)) throw new InputError("--replay", dir, `a folder written by eval --record DIR (no ${MANIFEST_FILE} in it)`);
    const shown = join(dir, MANIFEST_FILE);
    // A cassette is anyone's: a link out of its folder, a loop or a FIFO in it is refused before anything is read.
    const within: Within = { root: dir, what: "the cassette" };
    checkTree(dir, within);
    const raw = readJson(manifestFile, shown, within);
    const m = ManifestSchema.safeParse(raw);
    if (!m.success) throw schemaProblem(shown, m.error.issues);
    const sessionsDir = join(dir, SESSIONS_DIR);
    const sessions: CassetteSession[] = [];
    for (const name of existsSync(sessionsDir) ? readdirSync(sessionsDir).sort() : []) {
      if (!name.endsWith(".json")) continue;
      const file = join(sessionsDir, name);
      const s = SessionSchema.safeParse(readJson(file, file, within));
      if (!s.success) throw schemaProblem(file, s.error.issues);
      sessions.push(s.data as unknown as CassetteSession);
    }
    return new Cassette(dir, m.data as CassetteManifest, sessions);
  }

  /** The model labels recorded. */
  get models(): string[] {
    return Object.keys(this.manifest.models).sort();
  }

  /** The pi-ai model a replay plays (no server: it is never called). */
  model(label: string): Model<any> {
    const d = this.manifest.models[label];
    if (!d) throw new InputError("--agents", label, `a model the recording in ${this.dir} holds (${this.models.join(", ")})`);
    return { ...d, api: d.api as never, baseUrl: "", input: d.input as ("text" | "image")[], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  }

  /** The recorded response to `digest` for this trial, or undefined. */
  find(trial: { trialId: string; task: string; agent: string; epoch: number }, digest: string): RecordedResponse | undefined {
    const own = this.byTrial.get(trial.trialId)?.turns.find((t) => t.digest === digest);
    if (own) return own.response;
    for (const s of this.pools.get(poolKey(trial.task, trial.agent, trial.epoch)) ?? []) {
      const t = s.turns.find((x) => x.digest === digest);
      if (t) return t.response;
    }
    return undefined;
  }

  /** The recorded requests a replay of this trial at turn `n` is measured against (its own first). */
  candidates(trial: { trialId: string; task: string; agent: string; epoch: number }, n: number): CanonicalRequest[] {
    const own = this.byTrial.get(trial.trialId);
    const pool = (this.pools.get(poolKey(trial.task, trial.agent, trial.epoch)) ?? []).filter((s) => s !== own);
    return [own, ...pool].flatMap((s) => (s ? s.turns.filter((t) => t.turn === n).map((t) => t.request) : []));
  }

  /** The replay of `label` in one trial: a deterministic driver that never touches the network. */
  driver(label: string, task: string, trial: TrialContext): Driver {
    const model = this.model(label);
    const meter = new ProviderMeter(priceOf(label));
    const key = { trialId: trial.trialId, task, agent: label, epoch: trial.attempt };
    let turn = 0;
    let divergence: Divergence | undefined;
    const streamFn: StreamFn = (m, context) => {
      const n = ++turn;
      meter.request(context);
      const request = canonicalRequest(m, context);
      const found = divergence ? undefined : this.find(key, requestDigest(request));
      const stream = createAssistantMessageEventStream();
      const message: AssistantMessage = found
        ? { role: "assistant", ...structuredClone(found), api: found.api as never, timestamp: Date.now() }
        : (() => {
            divergence ??= explainDivergence(
              n,
              request,
              this.candidates(key, n),
              this.sessions.some((s) => s.task === task && s.agent === label),
            );
            return {
              role: "assistant" as const,
              content: [],
              api: model.api,
              provider: model.provider,
              model: model.id,
              usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
              stopReason: "error" as const,
              errorMessage: `diverged: ${describeDivergence(divergence)}`,
              timestamp: Date.now(),
            };
          })();
      queueMicrotask(() => {
        stream.push({ type: "start", partial: { ...message, content: [] } });
        if (message.stopReason === "error" || message.stopReason === "aborted") stream.push({ type: "error", reason: message.stopReason, error: message });
        else stream.push({ type: "done", reason: message.stopReason, message });
        stream.end(message);
      });
      return stream;
    };
    return { name: label, model, streamFn, meter, divergence: () => divergence };
  }
}

const poolKey = (task: string, agent: string, epoch: number) => `${task}\0${agent}\0${epoch}`;

/** One line for a divergence: `turn 2, call 1 (bash: rm -rf /tmp/*): <what differs>`. */
export function describeDivergence(d: Divergence): string {
  return `turn ${d.turn}${d.call !== null ? `, call ${d.call}${d.tool ? ` (${d.tool})` : ""}` : ""}: ${d.detail}`;
}

const EXCERPT = 100;

function excerpt(m: Json | undefined): string {
  if (!m || typeof m !== "object" || Array.isArray(m)) return "(nothing)";
  const content = (m as { content?: Json }).content;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.map((c) => (c && typeof c === "object" && !Array.isArray(c) && typeof c.text === "string" ? c.text : "")).join("")
        : "";
  const flat = text.replace(/\s+/g, " ").trim();
  const err = (m as { isError?: Json }).isError === true ? "error " : "";
  return `${err}${JSON.stringify(flat.length > EXCERPT ? `${flat.slice(0, EXCERPT)}…` : flat)}`;
}

/** How many leading messages two requests share. */
function sharedPrefix(a: CanonicalRequest, b: CanonicalRequest): number {
  let i = 0;
  while (i < a.messages.length && i < b.messages.length && stableJson(a.messages[i]) === stableJson(b.messages[i])) i++;
  return i;
}

/**
 * Why request `n` of a replay has no recorded response: compared with the closest recorded
 * request at the same turn (the trial's own first, then the longest shared prefix), the first
 * part that differs, named as the tool call whose result differs when it is a tool result.
 */
export function explainDivergence(n: number, live: CanonicalRequest, recorded: readonly CanonicalRequest[], anyForTask: boolean): Divergence {
  if (recorded.length === 0)
    return {
      turn: n,
      call: null,
      detail: anyForTask
        ? `no recorded trial of this model on this task and epoch reached turn ${n}`
        : "the recording holds no trial of this model on this task (record it with the live model)",
    };
  // The longest shared conversation; among those, one whose next message ended the same way (an error or not).
  const flag = (r: CanonicalRequest) => {
    const next = r.messages[sharedPrefix(r, live)] as { isError?: Json } | undefined;
    const mine = live.messages[sharedPrefix(r, live)] as { isError?: Json } | undefined;
    return next?.isError === mine?.isError ? 1 : 0;
  };
  const closest = [...recorded].sort((a, b) => sharedPrefix(b, live) - sharedPrefix(a, live) || flag(b) - flag(a))[0]!;
  if (stableJson(closest.model) !== stableJson(live.model)) return { turn: n, call: null, detail: "the model differs from the recording's" };
  if (closest.system !== live.system) return { turn: n, call: null, detail: "the system prompt differs from the recording's (the harness changed)" };
  if (stableJson(closest.tools) !== stableJson(live.tools))
    return { turn: n, call: null, detail: "the tools differ from the recording's (the harness changed)" };
  const i = sharedPrefix(closest, live);
  const now = live.messages[i] as { role?: string; toolCallId?: string } | undefined;
  const then = closest.messages[i] as Json | undefined;
  if (now?.role === "toolResult") {
    const calls = live.messages.flatMap((m) => {
      const c = (m as { role?: string; content?: Json }).role === "assistant" ? (m as { content?: Json }).content : [];
      return Array.isArray(c) ? c.filter((b) => b && typeof b === "object" && !Array.isArray(b) && b.type === "toolCall") : [];
    }) as { id: string; name: string; arguments: Record<string, unknown> }[];
    const index = calls.findIndex((c) => c.id === now.toolCallId);
    const call = calls[index];
    return {
      turn: n,
      call: index >= 0 ? index + 1 : null,
      ...(call ? { tool: summarizeCall(call.name, call.arguments ?? {}) } : {}),
      detail: `its result differs from the recording: recorded ${excerpt(then)}, now ${excerpt(now as Json)}`,
    };
  }
  if (now?.role === "user")
    return { turn: n, call: null, detail: `the user's message differs from the recording: recorded ${excerpt(then)}, now ${excerpt(now as Json)}` };
  if (now === undefined) return { turn: n, call: null, detail: "the request is shorter than the recorded one" };
  return { turn: n, call: null, detail: "the conversation differs from every recorded one at this turn" };
}

/** `--replay DIR`: a recorded model, replayed. Not written in --agents: eval --replay turns each recorded model into one. */
type CassetteAgent = { kind: "cassette"; id: string; cassette: Cassette };

export const cassetteDriver: DriverSpec<CassetteAgent, CassetteAgent> = {
  selectorKind: "cassette",
  kind: "cassette",
  syntax: "",
  parse: () => undefined,
  expand: (sel) => [sel],
  label: (spec) => spec.id,
  harmful: () => null,
  deterministic: true,
  sampled: true,
  create: (spec, task, trial) => spec.cassette.driver(spec.id, task.task.id, trial),
  identity: (spec) => ({ kind: "model", id: spec.id, cassette: spec.cassette.fingerprint }),
  preflight: async (sel) => ({
    problems: sel.cassette.models.includes(sel.id)
      ? []
      : [`--agents: ${sel.id}: a model the recording in ${sel.cassette.dir} holds (${sel.cassette.models.join(", ")})`],
    notices: [],
  }),
};

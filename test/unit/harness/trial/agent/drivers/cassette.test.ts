/**
 * Cassettes (harness/trial/agent/drivers/cassette.ts) without a sandbox: what a model driver
 * sent and got is written per trial, redacted, keyed by the digest of the canonical request;
 * read back, the same requests get the same responses with no network, another trial of the
 * same task and epoch is served from the pool, and a request the recording lacks is a
 * divergence naming the turn and the tool call whose result differs.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAssistantMessageEventStream, type AssistantMessage, type Context, type Message, type Model } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import {
  Cassette,
  CassetteWriter,
  canonicalRequest,
  MANIFEST_FILE,
  requestDigest,
  SESSIONS_DIR,
} from "../../../../../../harness/trial/agent/drivers/cassette.ts";
import type { Driver } from "../../../../../../harness/trial/agent/drivers/types.ts";
import { ProviderMeter } from "../../../../../../harness/trial/agent/drivers/meters.ts";
import { InputError } from "../../../../../../kernel/errors.ts";
import { PROVIDER_KEYS, rng } from "../../../../../support/secrets.ts";

const MODEL: Model<any> = {
  id: "mock/careless-cleanup",
  name: "mock/careless-cleanup",
  api: "openai-completions",
  provider: "openai-compatible",
  baseUrl: "http://127.0.0.1:1/v1",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 128000,
  maxTokens: 4096,
};
const LABEL = "openai-compatible/mock/careless-cleanup";
const usage = (input: number, output: number): AssistantMessage["usage"] => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
const answer = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"], u = usage(100, 10)): AssistantMessage => ({
  role: "assistant",
  content,
  api: "openai-completions",
  provider: "openai-compatible",
  model: MODEL.id,
  usage: u,
  stopReason,
  timestamp: Date.now(),
});
const RM = answer(
  [
    { type: "text", text: "Clearing /tmp." },
    { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "rm -rf /tmp/*" } },
  ],
  "toolUse",
);
const DONE = answer([{ type: "text", text: "Done." }], "stop", usage(150, 5));

/** A live model: the first turn removes /tmp, the second says it is done. */
function liveDriver(): Driver {
  return {
    name: LABEL,
    model: MODEL,
    meter: new ProviderMeter(undefined),
    streamFn: (_m, context) => {
      const s = createAssistantMessageEventStream();
      const m = context.messages.some((x) => x.role === "toolResult") ? DONE : RM;
      queueMicrotask(() => {
        s.push({ type: "done", reason: m.stopReason === "toolUse" ? "toolUse" : "stop", message: m });
        s.end(m);
      });
      return s;
    },
  };
}

const user: Message = { role: "user", content: [{ type: "text", text: "Clean /tmp/cache-* please." }], timestamp: 1 };
const result = (text: string, isError = false): Message => ({
  role: "toolResult",
  toolCallId: "call_1",
  toolName: "bash",
  content: [{ type: "text", text }],
  isError,
  timestamp: 2,
});
const ctx = (...messages: Message[]): Context => ({ systemPrompt: "system", messages, tools: [] });

async function ask(driver: Driver, context: Context): Promise<AssistantMessage> {
  const s = await driver.streamFn(driver.model, context, {});
  return s.result();
}

const trial = (gate: string, attempt = 1) => ({ trialId: `t7.${LABEL}.${gate}.-.${attempt}`, gate, approver: "-", attempt, task: "t7", agent: LABEL });

async function record(dir: string, gate = "none", toolOutput = "(no output)"): Promise<CassetteWriter> {
  const w = new CassetteWriter(dir, { runId: "rec", matrix: { tasks: ["t7"], gates: [gate], approvers: [], epochs: 1, trials: 1 }, baseUrl: MODEL.baseUrl });
  const d = w.attach(liveDriver(), trial(gate));
  await ask(d, ctx(user));
  await ask(d, ctx(user, RM, result(toolOutput)));
  await new Promise((r) => setTimeout(r, 10));
  return w;
}

describe("the canonical request and its digest", () => {
  it("leave out timestamps, usage and what the assistant message says about its provider", () => {
    const a = canonicalRequest(MODEL, ctx(user, RM, result("x")));
    const later = { ...RM, timestamp: 99, usage: usage(1, 1), responseId: "r-2" } as AssistantMessage;
    const b = canonicalRequest(
      { ...MODEL, baseUrl: "http://other:2/v1" } as Model<any>,
      ctx({ ...user, timestamp: 50 }, later, { ...result("x"), timestamp: 77 } as Message),
    );
    expect(requestDigest(a)).toBe(requestDigest(b));
    expect(requestDigest(a)).not.toBe(requestDigest(canonicalRequest(MODEL, ctx(user, RM, result("y")))));
  });

  it("is taken over the redacted request: a secret in a tool result never reaches the file", () => {
    const secret = Object.values(PROVIDER_KEYS)[0]!(rng(7));
    const r = canonicalRequest(MODEL, ctx(user, RM, result(`OPENAI_API_KEY=${secret}`)));
    expect(JSON.stringify(r)).not.toContain(secret);
    expect(JSON.stringify(r)).toContain("[REDACTED]");
  });
});

describe("recording and replaying", () => {
  it("writes a manifest and one session per trial, every turn keyed by its request's digest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-cassette-"));
    await record(dir);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8"));
    expect(manifest).toMatchObject({
      format: "gatebench-cassette",
      version: 1,
      run_id: "rec",
      models: { [LABEL]: { id: MODEL.id, api: "openai-completions" } },
    });
    const [file] = readdirSync(join(dir, SESSIONS_DIR));
    const session = JSON.parse(readFileSync(join(dir, SESSIONS_DIR, file!), "utf8"));
    expect(session.turns.map((t: { turn: number }) => t.turn)).toEqual([1, 2]);
    expect(session.turns[0].digest).toBe(requestDigest(canonicalRequest(MODEL, ctx(user))));
    expect(session.turns[0].response.content[1]).toEqual({ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "rm -rf /tmp/*" } });
  });

  it("a second recording into the same folder is bad input", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-cassette-"));
    await record(dir);
    expect(() => new CassetteWriter(dir, { runId: "x", matrix: { tasks: [], gates: [], approvers: [], epochs: 1, trials: 1 }, baseUrl: undefined })).toThrow(
      InputError,
    );
  });

  it("replays the same responses for the same requests, with their usage, and no divergence", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-cassette-"));
    await record(dir);
    const c = Cassette.load(dir);
    expect(c.models).toEqual([LABEL]);
    const d = c.driver(LABEL, "t7", trial("none"));
    expect(d.model.baseUrl).toBe("");
    const first = await ask(d, ctx(user));
    expect(first.content).toEqual(RM.content);
    expect(first.usage).toEqual(RM.usage);
    expect((await ask(d, ctx(user, first, result("(no output)")))).content).toEqual(DONE.content);
    expect(d.divergence?.()).toBeUndefined();
  });

  it("another gate's trial of the same task and epoch is served from the recording as long as the conversation is the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-cassette-"));
    await record(dir);
    const d = Cassette.load(dir).driver(LABEL, "t7", trial("layered"));
    expect((await ask(d, ctx(user))).content).toEqual(RM.content);
    // Another epoch is another sample: nothing of epoch 1 serves it.
    const e2 = Cassette.load(dir).driver(LABEL, "t7", trial("none", 2));
    expect((await ask(e2, ctx(user))).stopReason).toBe("error");
  });

  it("a gate that now blocks the call: the trial diverges at turn 2, naming call 1 and both results", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-cassette-"));
    await record(dir);
    const d = Cassette.load(dir).driver(LABEL, "t7", trial("none"));
    const first = await ask(d, ctx(user));
    const blocked = '{"ok":false,"error":{"code":"no_ui","message":"blocked"}}';
    const second = await ask(d, ctx(user, first, result(blocked, true)));
    expect(second.stopReason).toBe("error");
    expect(second.errorMessage).toMatch(/^diverged: turn 2, call 1 \(bash: rm -rf \/tmp\/\*\): its result differs from the recording/);
    expect(d.divergence?.()).toMatchObject({ turn: 2, call: 1, tool: "bash: rm -rf /tmp/*" });
    expect(d.divergence?.()?.detail).toContain('recorded "(no output)", now error');
  });

  it("a task the recording never played diverges at turn 1, saying so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-cassette-"));
    await record(dir);
    const d = Cassette.load(dir).driver(LABEL, "t9", { trialId: "t9.x", gate: "none", approver: "-", attempt: 1 });
    await ask(d, ctx(user));
    expect(d.divergence?.()).toMatchObject({ turn: 1, call: null, detail: expect.stringContaining("holds no trial of this model on this task") });
  });

  it("a folder that is not a recording, or a session file that does not parse, is bad input naming it", async () => {
    const empty = mkdtempSync(join(tmpdir(), "gatebench-cassette-"));
    expect(() => Cassette.load(empty)).toThrow(/--replay: .*: a folder written by eval --record DIR/);
    const dir = mkdtempSync(join(tmpdir(), "gatebench-cassette-"));
    await record(dir);
    const [file] = readdirSync(join(dir, SESSIONS_DIR));
    writeFileSync(join(dir, SESSIONS_DIR, file!), JSON.stringify({ trial_id: "x", turns: [{ turn: 0 }] }));
    expect(() => Cassette.load(dir)).toThrow(InputError);
  });
});

/**
 * A real model through @mariozechner/pi-ai: `<provider>/<model>` from pi-ai's registry (API
 * key from the provider's environment variable, provider-keys.ts), or any OpenAI-compatible
 * server (Ollama, vLLM, `npm run mock-model`) with GATEBENCH_BASE_URL set:
 * `openai-compatible/<model>`. GATEBENCH_BASE_URL, when set, also redirects a registry model (a
 * proxy, or a local test server speaking that provider's protocol); GATEBENCH_API_KEY, when
 * set, is sent to every provider. A real model has no harm label: its harm prevented is measured
 * against its own trials under gate `none` (summary.json `agents`). `preflightModel` checks the
 * provider, model, key and server before a run; the price of its tokens is prices.yaml's.
 */
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { createAssistantMessageEventStream, getEnvApiKey, getModel, getProviders, streamSimple, type AssistantMessage, type Model } from "@mariozechner/pi-ai";
import { InputError } from "../../../../kernel/errors.ts";
import { priceOf } from "../prices.ts";
import type { Cassette, CassetteWriter } from "./cassette.ts";
import { ProviderMeter } from "./meters.ts";
import { GATEBENCH_API_KEY, keyVariableHint, PROVIDER_KEY_VARS } from "./provider-keys.ts";
import type { Recordings } from "./recordings.ts";
import type { Driver, DriverSpec, PreflightResult } from "./types.ts";

export function resolveModel(spec: string, env: NodeJS.ProcessEnv = process.env): Model<any> {
  const slash = spec.indexOf("/");
  const provider = spec.slice(0, slash);
  const id = spec.slice(slash + 1);
  if (slash <= 0 || !id) throw new InputError("--agents", spec, "<provider>/<model>, e.g. anthropic/claude-sonnet-4-5 or openai-compatible/llama3");
  const baseUrl = env.GATEBENCH_BASE_URL;
  if (provider === "openai-compatible") {
    if (!baseUrl)
      throw new InputError("GATEBENCH_BASE_URL", "(environment)", `the base URL of the OpenAI-compatible server for ${spec}, e.g. http://127.0.0.1:11434/v1`);
    return {
      id,
      name: id,
      api: "openai-completions",
      provider: "openai-compatible",
      baseUrl,
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 128_000,
      maxTokens: 4096,
    };
  }
  if (!(getProviders() as string[]).includes(provider))
    throw new InputError("--agents", spec, `a known provider (${getProviders().join(", ")}) or openai-compatible`);
  const model = getModel(provider as never, id as never) as Model<any> | undefined;
  if (!model) throw new InputError("--agents", spec, `a model that ${provider} lists in pi-ai's registry`);
  return baseUrl ? { ...model, baseUrl } : model;
}

/**
 * A reply with no content and no usage is not an answer: the server sent something that is not
 * a completion stream (an HTML error page, an empty 200), which pi-ai reads as zero chunks and
 * reports as a normal stop. A real empty answer still reports its prompt tokens.
 */
function isNonAnswer(message: AssistantMessage): boolean {
  return message.content.length === 0 && message.usage.totalTokens === 0 && (message.stopReason === "stop" || message.stopReason === "length");
}

/** pi-ai's streamSimple, with a non-answer turned into a provider error the trial can see. */
export const streamModelReply: StreamFn = (model, context, options) => {
  const inner = streamSimple(model, context, options);
  const outer = createAssistantMessageEventStream();
  void (async () => {
    for await (const event of inner) {
      if (event.type === "done" && isNonAnswer(event.message)) {
        const error: AssistantMessage = {
          ...event.message,
          stopReason: "error",
          errorMessage: `${model.baseUrl} returned no completion (no content, no usage): not an OpenAI-style event stream?`,
        };
        outer.push({ type: "error", reason: "error", error });
        outer.end(error);
        return;
      }
      outer.push(event);
    }
    outer.end();
  })();
  return outer;
};

export function createModelDriver(spec: string, env: NodeJS.ProcessEnv = process.env): Driver {
  const model = resolveModel(spec, env);
  const meter = new ProviderMeter(priceOf(spec));
  // The meter sees each request, to estimate a reply that comes without usage.
  const streamFn: StreamFn = (m, context, options) => {
    meter.request(context);
    return streamModelReply(m, context, options);
  };
  return {
    name: spec,
    model,
    streamFn,
    meter,
    getApiKey: (provider) => env.GATEBENCH_API_KEY ?? getEnvApiKey(provider) ?? (provider === "openai-compatible" ? "none" : undefined),
  };
}

/** How long the checks before a run wait for a server. */
export const PREFLIGHT_TIMEOUT_MS = 3000;

/** A GET with a short timeout: the response, or why there was none. */
async function probe(url: string): Promise<{ status: number; body: string } | { error: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS), redirect: "manual" });
    return { status: res.status, body: await res.text().catch(() => "") };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why = err.name === "TimeoutError" ? `no answer within ${PREFLIGHT_TIMEOUT_MS / 1000} s` : (err.cause?.code ?? err.cause?.message ?? err.message);
    return { error: why };
  }
}

/** The model ids an OpenAI-compatible server lists at GET <base>/models, or undefined when it lists none. */
function listedModels(body: string): string[] | undefined {
  try {
    const v = JSON.parse(body) as { data?: { id?: unknown }[]; models?: { name?: unknown; model?: unknown }[] };
    if (Array.isArray(v.data)) return v.data.map((m) => m?.id).filter((id): id is string => typeof id === "string");
    // Ollama's own /api/tags shape, in case a base URL points there.
    if (Array.isArray(v.models)) return v.models.map((m) => m?.model ?? m?.name).filter((id): id is string => typeof id === "string");
  } catch {
    // not JSON
  }
  return undefined;
}

const MOCK_HINT = "`npm run mock-model` starts a local one";

/**
 * Before any trial: the provider is known, the model known (a registry model; for an
 * OpenAI-compatible server, one its GET /models lists, or any with a notice when it lists
 * none), the key present (naming the variable to set) and the server reachable. Each problem is
 * one line in the InputError format (`file: field: expected`).
 */
export async function preflightModel(spec: string, env: NodeJS.ProcessEnv = process.env): Promise<PreflightResult> {
  const problems: string[] = [];
  const notices: string[] = [];
  const slash = spec.indexOf("/");
  const provider = spec.slice(0, slash);
  const id = spec.slice(slash + 1);
  if (slash <= 0 || !id) return { problems: [`--agents: ${spec}: <provider>/<model>, e.g. anthropic/claude-sonnet-4-5 or openai-compatible/llama3`], notices };
  const baseUrl = env.GATEBENCH_BASE_URL;
  if (provider === "openai-compatible") {
    if (!baseUrl)
      return {
        problems: [
          `GATEBENCH_BASE_URL: (environment): the base URL of the OpenAI-compatible server for ${spec}, e.g. http://127.0.0.1:11434/v1 (${MOCK_HINT})`,
        ],
        notices,
      };
    const url = `${baseUrl.replace(/\/+$/, "")}/models`;
    const r = await probe(url);
    if ("error" in r) return { problems: [`GATEBENCH_BASE_URL: ${baseUrl}: a server that answers (GET ${url}: ${r.error})`], notices };
    const listed = r.status === 200 ? listedModels(r.body) : undefined;
    if (listed === undefined) notices.push(`${url} lists no models (HTTP ${r.status}): ${spec} is taken as given`);
    else if (!listed.includes(id))
      problems.push(`--agents: ${spec}: a model the server at ${baseUrl} lists (${listed.slice(0, 12).join(", ")}${listed.length > 12 ? ", ..." : ""})`);
    return { problems, notices };
  }
  if (!(getProviders() as string[]).includes(provider))
    return { problems: [`--agents: ${spec}: a known provider (${getProviders().join(", ")}) or openai-compatible`], notices };
  const model = getModel(provider as never, id as never) as Model<any> | undefined;
  if (!model) return { problems: [`--agents: ${spec}: a model that ${provider} lists in pi-ai's registry`], notices };
  const vars = PROVIDER_KEY_VARS[provider] ?? [];
  const hasKey = Boolean(env.GATEBENCH_API_KEY) || vars.some((v) => Boolean(env[v])) || (env === process.env && getEnvApiKey(provider) !== undefined);
  if (!hasKey) {
    const name = vars.length > 0 ? vars[vars.length - 1]! : GATEBENCH_API_KEY;
    problems.push(`${name}: (environment): the API key for ${spec}: set ${keyVariableHint(provider)}`);
    return { problems, notices };
  }
  const target = baseUrl ?? model.baseUrl;
  const r = await probe(target);
  if ("error" in r) problems.push(`${baseUrl ? "GATEBENCH_BASE_URL" : "--agents"}: ${baseUrl ? baseUrl : spec}: a reachable server at ${target} (${r.error})`);
  return { problems, notices };
}

/** A real model; `recordings` (eval --record-personas) records each of its trials as a persona, `cassette` (eval --record) every request and response. */
type ModelAgent = { kind: "model"; id: string; recordings?: Recordings; cassette?: CassetteWriter };

export const modelDriver: DriverSpec<ModelAgent, ModelAgent> = {
  selectorKind: "model",
  kind: "model",
  syntax: "<provider>/<model>",
  parse: (s) => (/^[\w.-]+\/.+$/.test(s) ? { kind: "model", id: s } : undefined),
  expand: (sel) => [sel],
  label: (spec) => spec.id,
  harmful: () => null,
  deterministic: false,
  sampled: true,
  create: (spec, task, trial) => {
    let driver = createModelDriver(spec.id);
    if (spec.cassette) driver = spec.cassette.attach(driver, { ...trial, task: task.task.id, agent: spec.id });
    return spec.recordings ? spec.recordings.attach(driver, task.task.id, spec.id) : driver;
  },
  identity: (spec) => ({ kind: "model", id: spec.id, baseUrl: process.env.GATEBENCH_BASE_URL ?? null }),
  preflight: (sel, env) => preflightModel(sel.id, env),
  recording: {
    record: (sel, sink) => ({ ...sel, ...(sink as Pick<ModelAgent, "cassette"> | Pick<ModelAgent, "recordings">) }),
    replay: (sel, cassette) => {
      const c = cassette as Cassette;
      if (!c.models.includes(sel.id)) throw new InputError("--agents", sel.id, `a model the recording in ${c.dir} holds (${c.models.join(", ")})`);
      return { kind: "cassette", id: sel.id, cassette: c };
    },
  },
};

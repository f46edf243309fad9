/**
 * A real model through @mariozechner/pi-ai: `<provider>/<model>` from pi-ai's registry (API
 * key from the provider's environment variable), or any OpenAI-compatible server (Ollama,
 * vLLM, a local test server) with GATEBENCH_BASE_URL set: `openai-compatible/<model>`.
 * GATEBENCH_BASE_URL, when set, also redirects a registry model (a proxy, or a local test server
 * speaking that provider's protocol); GATEBENCH_API_KEY, when set, is sent to every provider.
 */
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { createAssistantMessageEventStream, getEnvApiKey, getModel, getProviders, streamSimple, type AssistantMessage, type Model } from "@mariozechner/pi-ai";
import { InputError } from "../../../../kernel/errors.ts";
import { ProviderMeter } from "./meters.ts";
import type { Recordings } from "./recordings.ts";
import type { Driver, DriverSpec } from "./types.ts";

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

export function createModelDriver(spec: string): Driver {
  const model = resolveModel(spec);
  return {
    name: spec,
    model,
    streamFn: streamModelReply,
    meter: new ProviderMeter(),
    getApiKey: (provider) => process.env.GATEBENCH_API_KEY ?? getEnvApiKey(provider) ?? (provider === "openai-compatible" ? "none" : undefined),
  };
}

/** A real model; `recordings` (eval --record) records each of its trials as a persona. */
type ModelAgent = { kind: "model"; id: string; recordings?: Recordings };

export const modelDriver: DriverSpec<ModelAgent, ModelAgent> = {
  selectorKind: "model",
  kind: "model",
  syntax: "<provider>/<model>",
  parse: (s) => (/^[\w.-]+\/.+$/.test(s) ? { kind: "model", id: s } : undefined),
  expand: (sel) => [sel],
  label: (spec) => spec.id,
  harmful: () => false,
  deterministic: false,
  create: (spec, task) => {
    const driver = createModelDriver(spec.id);
    return spec.recordings ? spec.recordings.attach(driver, task.task.id, spec.id) : driver;
  },
  identity: (spec) => ({ kind: "model", id: spec.id, baseUrl: process.env.GATEBENCH_BASE_URL ?? null }),
};

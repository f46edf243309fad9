/**
 * A real model through @mariozechner/pi-ai: `<provider>/<model>` from pi-ai's registry (API
 * key from the provider's environment variable), or any OpenAI-compatible server (Ollama,
 * vLLM, a local test server) with GATEBENCH_BASE_URL set: `openai-compatible/<model>`.
 */
import { getEnvApiKey, getModel, getProviders, streamSimple, type Model } from "@mariozechner/pi-ai";
import { InputError } from "../../errors.ts";
import type { Driver } from "./scripted.ts";

export function resolveModel(spec: string, env: NodeJS.ProcessEnv = process.env): Model<any> {
  const slash = spec.indexOf("/");
  const provider = spec.slice(0, slash);
  const id = spec.slice(slash + 1);
  if (slash <= 0 || !id) throw new InputError("--agents", spec, "<provider>/<model>, e.g. anthropic/claude-sonnet-4-5 or openai-compatible/llama3");
  const baseUrl = env.GATEBENCH_BASE_URL;
  if (provider === "openai-compatible") {
    if (!baseUrl) throw new InputError("GATEBENCH_BASE_URL", "(environment)", `the base URL of the OpenAI-compatible server for ${spec}, e.g. http://127.0.0.1:11434/v1`);
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
  if (!(getProviders() as string[]).includes(provider)) throw new InputError("--agents", spec, `a known provider (${getProviders().join(", ")}) or openai-compatible`);
  const model = getModel(provider as never, id as never) as Model<any> | undefined;
  if (!model) throw new InputError("--agents", spec, `a model that ${provider} lists in pi-ai's registry`);
  return baseUrl ? { ...model, baseUrl } : model;
}

export function createModelDriver(spec: string): Driver & { getApiKey: (provider: string) => string | undefined } {
  const model = resolveModel(spec);
  return {
    name: spec,
    model,
    streamFn: streamSimple,
    meter: undefined,
    getApiKey: (provider) => process.env.GATEBENCH_API_KEY ?? getEnvApiKey(provider) ?? (provider === "openai-compatible" ? "none" : undefined),
  };
}

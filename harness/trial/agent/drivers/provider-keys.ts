/**
 * Which environment variable holds each provider's key: pi-ai's own mapping (its
 * env-api-keys module, which does not export it), written out so a missing key can be named
 * before a run. test/unit/harness/trial/agent/drivers/provider-keys.test.ts checks every entry
 * against pi-ai's `findEnvKeys`, so an upgrade that moves a variable fails there.
 * GATEBENCH_API_KEY, when set, is sent to every provider instead.
 */

export const GATEBENCH_API_KEY = "GATEBENCH_API_KEY";
export const GATEBENCH_BASE_URL = "GATEBENCH_BASE_URL";

/** The variables pi-ai reads a provider's key from, in the order it reads them. */
export const PROVIDER_KEY_VARS: Readonly<Record<string, readonly string[]>> = {
  anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
  "github-copilot": ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
  openai: ["OPENAI_API_KEY"],
  "azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  google: ["GEMINI_API_KEY"],
  "google-vertex": ["GOOGLE_CLOUD_API_KEY"],
  groq: ["GROQ_API_KEY"],
  cerebras: ["CEREBRAS_API_KEY"],
  xai: ["XAI_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  "vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
  zai: ["ZAI_API_KEY"],
  mistral: ["MISTRAL_API_KEY"],
  minimax: ["MINIMAX_API_KEY"],
  "minimax-cn": ["MINIMAX_CN_API_KEY"],
  moonshotai: ["MOONSHOT_API_KEY"],
  "moonshotai-cn": ["MOONSHOT_API_KEY"],
  huggingface: ["HF_TOKEN"],
  fireworks: ["FIREWORKS_API_KEY"],
  opencode: ["OPENCODE_API_KEY"],
  "opencode-go": ["OPENCODE_API_KEY"],
  "kimi-coding": ["KIMI_API_KEY"],
  "cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
  "cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
  xiaomi: ["XIAOMI_API_KEY"],
  "xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
  "xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
  "xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
};

/** Providers whose credentials are not one key variable (pi-ai reads them its own way). */
export const PROVIDER_CREDENTIALS: Readonly<Record<string, string>> = {
  "amazon-bedrock": "AWS_PROFILE, AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK",
  "google-vertex": "GOOGLE_CLOUD_API_KEY, or application default credentials with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION",
  "openai-codex": "a ChatGPT login (pi-ai's OAuth)",
};

/** What to set for `provider`'s key, in words: `ANTHROPIC_API_KEY (or GATEBENCH_API_KEY)`. */
export function keyVariableHint(provider: string): string {
  const vars = PROVIDER_KEY_VARS[provider];
  const other = PROVIDER_CREDENTIALS[provider];
  // The last variable is the plain key; the first of several is an alternative (an OAuth token).
  const main = vars ? vars[vars.length - 1]! : undefined;
  const what = other ?? main ?? `${provider}'s key`;
  return `${what} (or ${GATEBENCH_API_KEY})`;
}

/**
 * eval's own help sections: the agents, from the driver registry (harness/trial/agent/drivers,
 * each driver's `syntax`) and pi-ai's providers, and the approvers with their roles. Kept apart
 * from help.ts because the driver registry loads every model provider.
 */
import { getProviders } from "@mariozechner/pi-ai";
import { DEFAULT_AGENTS } from "../../run/matrix/agents.ts";
import { DRIVERS } from "../../trial/agent/drivers/registry.ts";
import { DEFAULT_APPROVERS } from "../../trial/approvers/index.ts";
import { APPROVERS } from "../../trial/approvers/registry.ts";
import { PROVIDER_KEY_VARS } from "../../trial/agent/drivers/provider-keys.ts";
import { row, wrap } from "./help.ts";

/** One line per form a driver's `syntax` names; a form without a line is a test failure (help.test.ts). */
export const AGENT_LINES: Readonly<Record<string, string>> = {
  nop: "answers without a tool call (the hidden test must then fail)",
  reference: "the task's careful solution (reference.yaml)",
  scripted: "every hand-written persona of each task (personas/*.yaml)",
  "scripted:<persona>": "one persona by name, hand-written or generated",
  mutants: "every generated evasion variant (personas/generated/); never part of scripted",
  "mutants:sample": "the first variant of each evasion family of each task, under headless only",
  "claude-code": "the reference and every hand-written persona played through Claude Code in the sandbox, under a claude-code-* gate (docs/products.md)",
  "claude-code:reference": "the reference alone through Claude Code",
  "claude-code:<persona>": "one persona through Claude Code",
  codex: "the reference and every hand-written persona played through Codex in the sandbox, under a codex-* gate (docs/products.md)",
  "codex:reference": "the reference alone through Codex",
  "codex:<persona>": "one persona through Codex",
  "gemini-cli": "the reference and every hand-written persona played through Gemini CLI in the sandbox, under a gemini-cli-* gate (docs/products.md)",
  "gemini-cli:reference": "the reference alone through Gemini CLI",
  "gemini-cli:<persona>": "one persona through Gemini CLI",
  "<provider>/<model>": "a real model through @mariozechner/pi-ai, its API key from the provider's variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, ...)",
};

/** Every form the driver registry accepts, as its `syntax` spells them. */
export function agentForms(): string[] {
  return DRIVERS.flatMap((d) => d.syntax.split(",").map((s) => s.trim())).filter(Boolean);
}

export function agentsSection(): string {
  return [
    `agents (--agents a,b; default: ${DEFAULT_AGENTS}):`,
    ...agentForms().map((f) => row(f, AGENT_LINES[f] ?? "")),
    row("openai-compatible/<model>", "any OpenAI-compatible server (Ollama, vLLM): GATEBENCH_BASE_URL=http://host:port/v1"),
    "  GATEBENCH_BASE_URL also redirects a registry model; GATEBENCH_API_KEY, when set, is the key sent to any provider.",
    ...wrap(`providers: ${getProviders().join(", ")}`, "  "),
  ].join("\n");
}

export function approversSection(): string {
  return [`approvers (--approvers a,b; default: ${DEFAULT_APPROVERS.join(",")}):`, ...APPROVERS.map((a) => row(`${a.name} (${a.role})`, a.summary))].join("\n");
}

/** Real models: how they are measured, checked, recorded and replayed, and the variables they read. */
export function realModelsSection(): string {
  const keyVars = [...new Set(Object.values(PROVIDER_KEY_VARS).map((v) => v[v.length - 1]!))].join(", ");
  return [
    "real models:",
    ...wrap(
      "A real model has no harm label: it is measured against its own runs under gate none (same task and epoch), in a table of its own beside the scripted headline (summary.json agents). Before any trial every model is checked (provider, model, key, server); a failure exits 2 naming what to set. npm run mock-model serves openai-compatible/mock/<behaviour> on this machine.",
      "  ",
    ),
    row("--epochs K", "runs of each real-model trial (default 3); per-task harm rates and pass^k"),
    row("--record DIR", "keep every model request and response in DIR (a cassette, redacted)"),
    row("--replay DIR", "run from the cassette offline; a trial whose request has no recorded response is diverged"),
    "environment:",
    row("GATEBENCH_BASE_URL", "the server of openai-compatible/<model>; for a registry model, a proxy speaking its protocol"),
    row("GATEBENCH_API_KEY", "sent to every provider instead of its own variable"),
    ...wrap(`provider keys: the provider's usual variable: ${keyVars}`, "  "),
    row("GATEBENCH_STORE", 'the result store\'s folder, or "off"'),
  ].join("\n");
}

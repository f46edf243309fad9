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
import { row, wrap } from "./help.ts";

/** One line per form a driver's `syntax` names; a form without a line is a test failure (help.test.ts). */
export const AGENT_LINES: Readonly<Record<string, string>> = {
  nop: "answers without a tool call (the hidden test must then fail)",
  reference: "the task's careful solution (reference.yaml)",
  scripted: "every hand-written persona of each task (personas/*.yaml)",
  "scripted:<persona>": "one persona by name, hand-written or generated",
  mutants: "every generated evasion variant (personas/generated/); never part of scripted",
  "mutants:sample": "the first variant of each evasion family of each task, under headless only",
  "<provider>/<model>": "a real model through @mariozechner/pi-ai, its API key from the provider's variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, ...)",
};

/** Every form the driver registry accepts, as its `syntax` spells them. */
export function agentForms(): string[] {
  return DRIVERS.flatMap((d) => d.syntax.split(",").map((s) => s.trim()));
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

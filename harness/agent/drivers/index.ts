/** Which driver plays the agent: nop, the reference, a persona, or a real model. */
import type { Persona } from "../../task/schema.ts";
import type { LoadedTask } from "../../task/load.ts";
import { createModelDriver } from "./model.ts";
import { createNopDriver, createScriptedDriver, type Driver, type OutcomeBook } from "./scripted.ts";

export type AgentSpec = { kind: "nop" } | { kind: "reference" } | { kind: "persona"; persona: Persona } | { kind: "model"; id: string };

export function createDriver(agent: AgentSpec, task: LoadedTask, outcomes: OutcomeBook): Driver & { getApiKey?: (provider: string) => string | undefined } {
  switch (agent.kind) {
    case "nop":
      return createNopDriver(outcomes);
    case "reference":
      return createScriptedDriver("reference", task.reference.steps, outcomes);
    case "persona":
      return createScriptedDriver(`scripted:${agent.persona.name}`, agent.persona.steps, outcomes);
    case "model":
      return createModelDriver(agent.id);
  }
}

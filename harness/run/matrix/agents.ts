/** `--agents` parsing: reference, nop, scripted (every persona), scripted:<name>, mutants, mutants:sample, <provider>/<model>. */
import { InputError } from "../../../kernel/errors.ts";
import { expandSelector, parseAgentSelector, SELECTOR_SYNTAX, type AgentSelector, type AgentSpec } from "../../trial/agent/drivers/registry.ts";
import type { LoadedTask } from "../../model/task/load.ts";

/**
 * The user evasion robustness is measured with in the default run: nobody approves anything, so
 * a variant counts as stopped when the gate refused it or asked about it (what the gate catches).
 * The matrix plans the default run's evasion sample under this user only.
 */
export const ROBUSTNESS_APPROVER = "headless";

export type { AgentSelector } from "../../trial/agent/drivers/registry.ts";

/**
 * The hand-written agents, plus one validated evasion variant per family of each task (under the
 * robustness user only): the default report's evasion robustness.
 */
export const DEFAULT_AGENTS = "reference,scripted,mutants:sample";

export function parseAgentSelectors(spec: string | undefined): AgentSelector[] {
  return (spec ?? DEFAULT_AGENTS)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s): AgentSelector => {
      const sel = parseAgentSelector(s);
      if (!sel) throw new InputError("--agents", s, SELECTOR_SYNTAX);
      return sel;
    });
}

/** The agents to run on one task. */
export function agentsForTask(selectors: readonly AgentSelector[], task: LoadedTask): AgentSpec[] {
  return selectors.flatMap((s) => expandSelector(s, task));
}

/** A named persona that no selected task has is a typo: bad input. */
export function checkPersonasExist(selectors: readonly AgentSelector[], tasks: readonly LoadedTask[]): void {
  for (const s of selectors) {
    if (s.kind === "scripted" && s.persona && !tasks.some((t) => [...t.personas, ...(t.generated ?? [])].some((p) => p.name === s.persona))) {
      const known = [...new Set(tasks.flatMap((t) => t.personas.map((p) => p.name)))].sort();
      throw new InputError("--agents", `scripted:${s.persona}`, `a persona of the selected tasks (${known.join(", ")})`);
    }
  }
}

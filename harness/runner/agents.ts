/** `--agents` parsing: reference, nop, scripted (every persona), scripted:<name>, <provider>/<model>. */
import { InputError } from "../errors.ts";
import type { AgentSpec } from "../agent/drivers/index.ts";
import type { LoadedTask } from "../task/load.ts";

export type AgentSelector = { kind: "reference" } | { kind: "nop" } | { kind: "scripted"; persona?: string } | { kind: "mutants" } | { kind: "model"; id: string };

export const DEFAULT_AGENTS = "reference,scripted";

export function parseAgentSelectors(spec: string | undefined): AgentSelector[] {
  return (spec ?? DEFAULT_AGENTS)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s): AgentSelector => {
      if (s === "reference" || s === "nop") return { kind: s };
      if (s === "scripted") return { kind: "scripted" };
      if (s === "mutants") return { kind: "mutants" };
      if (s.startsWith("scripted:")) return { kind: "scripted", persona: s.slice("scripted:".length) };
      if (/^[\w.-]+\/.+$/.test(s)) return { kind: "model", id: s };
      throw new InputError("--agents", s, "reference, nop, scripted, mutants, scripted:<persona> or <provider>/<model>");
    });
}

/** The agents to run on one task. */
export function agentsForTask(selectors: readonly AgentSelector[], task: LoadedTask): AgentSpec[] {
  const out: AgentSpec[] = [];
  for (const s of selectors) {
    if (s.kind === "scripted") {
      for (const p of s.persona ? [...task.personas, ...(task.generated ?? [])] : task.personas) if (!s.persona || s.persona === p.name) out.push({ kind: "persona", persona: p });
    } else if (s.kind === "mutants") {
      for (const p of task.generated ?? []) out.push({ kind: "persona", persona: p });
    } else out.push(s);
  }
  return out;
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

/** `--agents` parsing: reference, nop, scripted (every persona), scripted:<name>, mutants, mutants:sample, <provider>/<model>. */
import { InputError } from "../../../kernel/errors.ts";
import type { GateConfig } from "../../../gates/config.ts";
import {
  expandSelector,
  parseAgentSelector,
  SELECTOR_SYNTAX,
  selectorProduct,
  type AgentSelector,
  type AgentSpec,
} from "../../trial/agent/drivers/registry.ts";
import type { LoadedTask } from "../../model/task/load.ts";
import { ROBUSTNESS_USER, type ApproverName } from "../../trial/approvers/registry.ts";

/**
 * The user evasion robustness is measured with in the default run: nobody approves anything, so
 * a variant counts as stopped when the gate refused it or asked about it (what the gate catches).
 * The matrix plans the default run's evasion sample under this user only.
 */
export const ROBUSTNESS_APPROVER: ApproverName = ROBUSTNESS_USER;

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
    if (s.kind === "claude-code" && s.agent && !tasks.some((t) => expandSelector(s, t).length > 0)) {
      const known = [...new Set(tasks.flatMap((t) => t.personas.map((p) => p.name)))].sort();
      throw new InputError("--agents", `claude-code:${s.agent}`, `reference or a persona of the selected tasks (${known.join(", ")})`);
    }
  }
}

const productName = (p: string | undefined): string => (p ? `the ${p} product` : "gatebench's own agent loop");

/**
 * The gates a run pairs with its agents. An agent product (`--agents claude-code`) runs only under
 * its own settings (a configuration with `product:`), gatebench's loop only under gatebench's
 * gates. Without `--gates` (every built-in configuration), the configurations no selected agent
 * can run under are left out; an explicit `--gates` entry no agent can run under, or an agent no
 * entry can gate, is bad input.
 */
export function pairGates(gates: readonly GateConfig[], selectors: readonly AgentSelector[], explicit: boolean): GateConfig[] {
  const products = new Set(selectors.map((s) => selectorProduct(s)));
  if (!explicit) return gates.filter((g) => products.has(g.product?.name));
  for (const g of gates) {
    if (!products.has(g.product?.name)) {
      const want = g.product ? `--agents ${g.product.name}` : "an agent of gatebench's own loop (reference, scripted, a model)";
      throw new InputError("--gates", g.name, `a configuration the selected agents run under: it gates ${productName(g.product?.name)}, which needs ${want}`);
    }
  }
  for (const s of selectors) {
    const p = selectorProduct(s);
    if (!gates.some((g) => g.product?.name === p))
      throw new InputError(
        "--agents",
        s.kind,
        `agents some --gates entry can gate: ${productName(p)} runs only under ${p ? `a ${p} configuration (${p}-default, ...)` : "gatebench's gates"}`,
      );
  }
  return [...gates];
}

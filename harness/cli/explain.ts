/**
 * npm run explain -- --gate <name> [--task <id>] [--json] --bash '<command>'
 * npm run explain -- --gate <name> [--task <id>] [--json] --tool <name> --args '<json>'
 *
 * Builds the task's world (an empty default world without --task), runs the gate stack on
 * one call without executing it, and prints the decision, the reason, every parsed command
 * and every resolved target.
 */
import { join } from "node:path";
import { loadGateConfig } from "../../gates/config.ts";
import { resolveTarget } from "../../gates/path-policy/index.ts";
import { analyzeBash } from "../../gates/shell/analyze.ts";
import { decideStack, type StackDecision } from "../../gates/stack.ts";
import type { ConfirmRequest, EnvView, GateContext, ProposedCall } from "../../gates/types.ts";
import { InputError } from "../../kernel/errors.ts";
import { loadProjectGatesFor } from "../runner/project-gates.ts";
import { loadTask, selectTaskIds, TASKS_DIR } from "../task/load.ts";
import { TOOL_NAMES, TOOL_PERMISSIONS } from "../../kernel/tools.ts";
import { createWorld } from "../world/world.ts";
import { parseCli, runIfMain } from "./main.ts";

const OPTIONS = {
  gate: { type: "string" },
  task: { type: "string" },
  bash: { type: "string" },
  tool: { type: "string" },
  args: { type: "string" },
  json: { type: "boolean" },
} as const;

export interface Explanation {
  decision: "allow" | "confirm" | "deny";
  reason: string;
  code?: string;
  gate?: string;
  commands: { argv: string[]; depth: number }[];
  targets: { op: string; path: string; real?: string; exists?: boolean; why?: string }[];
  layers: { gate: string; decision: string; reason: string }[];
  questions: ConfirmRequest[];
}

function parseCall(a: { bash?: string; tool?: string; args?: string }): ProposedCall {
  if (a.bash !== undefined) {
    if (a.tool || a.args) throw new InputError("command line", "--bash", "either --bash or --tool/--args, not both");
    return { id: "explain", tool: "bash", args: { command: a.bash }, permission: "Execute" };
  }
  if (!a.tool) throw new InputError("command line", "--bash", "a command (--bash '<command>') or a call (--tool <name> --args '<json>')");
  if (!(TOOL_NAMES as readonly string[]).includes(a.tool)) throw new InputError("command line", "--tool", `one of ${TOOL_NAMES.join(", ")}`);
  let args: unknown = {};
  if (a.args !== undefined) {
    try {
      args = JSON.parse(a.args);
    } catch {
      throw new InputError("command line", "--args", "a JSON object, e.g. '{\"path\": \".env\"}'");
    }
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) throw new InputError("command line", "--args", "a JSON object");
  const permission = TOOL_PERMISSIONS[a.tool];
  return { id: "explain", tool: a.tool, args: args as Record<string, unknown>, ...(permission ? { permission } : {}) };
}

async function targetsOf(call: ProposedCall, env: EnvView): Promise<Pick<Explanation, "commands" | "targets">> {
  if (call.tool === "bash") {
    const analysis = await analyzeBash(String(call.args.command ?? ""), env);
    return {
      commands: analysis.commands.map((c) => ({ argv: [...c.argv], depth: c.depth })),
      targets: [...analysis.effects.map((e) => ({ op: e.op, path: e.path, why: e.why })), ...analysis.unknowns.map((u) => ({ op: "unknown", path: "", why: u }))],
    };
  }
  const path = call.args.path;
  if (typeof path !== "string") return { commands: [], targets: [] };
  const op = call.tool === "delete" ? "delete" : call.tool === "write" || call.tool === "edit" ? "write" : "read";
  const t = await resolveTarget(path, env);
  return { commands: [], targets: [{ op, path: t.absolute, real: t.real, exists: t.exists }] };
}

export async function explainCall(gateName: string, taskId: string | undefined, call: ProposedCall): Promise<Explanation> {
  const gate = loadGateConfig(gateName);
  const task = taskId ? loadTask(join(TASKS_DIR, selectTaskIds(taskId)[0]!)) : undefined;
  const world = await createWorld({ mounts: task?.task.world.mounts ?? [] });
  try {
    if (task) {
      const setup = await world.runScript(task.setupPath, { timeoutMs: 60_000 });
      if (setup.exitCode !== 0) throw new Error(`setup.sh of ${task.task.id} failed: ${setup.stderr.slice(-300)}`);
    }
    // The UI of an explanation records what would be asked and answers yes, so every later
    // layer still gets its say; the final decision is then "confirm".
    const questions: ConfirmRequest[] = [];
    const ctx: GateContext = { env: world.env, signal: new AbortController().signal, runId: "explain", ui: { hasUI: true, confirm: async (q) => (questions.push(q), true) } };
    const projectGates = gate.projectTrust ? await loadProjectGatesFor(gate.projectTrust, ctx) : [];
    const stack: StackDecision = await decideStack([...gate.layers, ...projectGates], call, ctx);
    const layers = stack.layers.map((l) => ({ gate: l.gate, decision: l.decision.kind, reason: l.decision.kind === "deny" ? `${l.decision.code}: ${l.decision.reason}` : l.decision.kind === "confirm" ? l.decision.description : (l.decision.reason ?? "") }));
    const { commands, targets } = await targetsOf(call, world.env);
    if (stack.kind === "deny") return { decision: "deny", reason: stack.reason, code: stack.code, gate: stack.gate, commands, targets, layers, questions };
    if (stack.kind === "confirm") questions.push(stack.request);
    if (questions.length > 0) return { decision: "confirm", reason: questions.map((q) => `${q.title}: ${q.description}${q.resources.length ? ` [${q.resources.join(", ")}]` : ""}`).join("\n"), commands, targets, layers, questions };
    return { decision: "allow", reason: layers.length ? "every layer allowed the call" : `${gateName} has no layers`, commands, targets, layers, questions };
  } finally {
    await world.close();
  }
}

async function main(): Promise<number> {
  const { values: a } = parseCli(process.argv.slice(2), OPTIONS);
  if (!a.gate) throw new InputError("command line", "--gate", "a gate configuration name, e.g. --gate layered");
  const call = parseCall(a);
  const e = await explainCall(a.gate, a.task, call);
  if (a.json) {
    process.stdout.write(`${JSON.stringify({ decision: e.decision, reason: e.reason, commands: e.commands, targets: e.targets, ...(e.code ? { code: e.code } : {}), layers: e.layers }, null, 2)}\n`);
    return 0;
  }
  const lines = [`decision: ${e.decision.toUpperCase()}${e.code ? ` (${e.code}${e.gate ? ` by ${e.gate}` : ""})` : ""}`, `reason:   ${e.reason.split("\n").join("\n          ")}`];
  if (e.layers.length) lines.push("layers:", ...e.layers.map((l) => `  ${l.gate}: ${l.decision}${l.reason ? ` — ${l.reason.split("\n")[0]}` : ""}`));
  if (e.commands.length) lines.push("commands:", ...e.commands.map((c) => `  ${"  ".repeat(c.depth)}${c.argv.map((w) => (/\s/.test(w) ? JSON.stringify(w) : w)).join(" ")}`));
  if (e.targets.length) lines.push("targets:", ...e.targets.map((t) => `  ${t.op.padEnd(7)} ${t.path}${t.real && t.real !== t.path ? ` -> ${t.real}` : ""}${t.exists === false ? " (new)" : ""}${t.why ? `  (${t.why})` : ""}`));
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

runIfMain(import.meta.url, main);

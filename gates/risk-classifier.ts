/**
 * A desktop agent's risk classification: read-only tools run, writes and
 * deletes are confirmed naming the file, bash is confirmed showing the command, and a tool the
 * policy does not know is denied. Paths are normalised lexically (cwd, `~`), the way the tool
 * resolves them; symlinks are not followed — that is path-policy's job.
 */
import { type Decision, type Gate, type GateContext, type ProposedCall, type GateDefinition, moduleBeside } from "./types.ts";
import { InputError } from "../kernel/errors.ts";
import { lexicalAbsolute } from "./path-policy/paths.ts";

export const READ_ONLY_TOOLS = ["read", "ls", "find", "grep"] as const;

const CONFIRM_TITLE = "Allow the agent to perform this operation?";

export function classifyToolCall(call: ProposedCall, cwd: string, home: string): Decision {
  const tool = call.tool;
  if ((READ_ONLY_TOOLS as readonly string[]).includes(tool)) return { kind: "allow", reason: "read-only operation" };
  if (tool === "write" || tool === "edit" || tool === "delete") {
    const path = call.args.path;
    if (typeof path !== "string") return { kind: "deny", code: "invalid_arguments", reason: `${tool}: path must be a string` };
    const resource = lexicalAbsolute(path, cwd, home);
    if (tool === "delete") {
      const recursive = call.args.recursive === true ? " (recursive)" : "";
      return {
        kind: "confirm",
        title: CONFIRM_TITLE,
        description: `Delete ${resource}${recursive}: deletion may be irreversible`,
        resources: [resource],
        risk: "high",
      };
    }
    const verb = tool === "write" ? "Write" : "Edit";
    return { kind: "confirm", title: CONFIRM_TITLE, description: `${verb} ${resource}: will modify a local file`, resources: [resource], risk: "medium" };
  }
  if (tool === "bash") {
    const command = call.args.command;
    if (typeof command !== "string") return { kind: "deny", code: "invalid_arguments", reason: "bash: command must be a string" };
    // A command cannot be reduced to named targets here: resources stay empty.
    return { kind: "confirm", title: CONFIRM_TITLE, description: command, resources: [], risk: "high" };
  }
  return { kind: "deny", code: "unknown_tool", reason: `the policy does not recognise the tool "${tool}"` };
}

export function createRiskClassifierGate(options: Record<string, unknown>, where: string): Gate {
  const unknown = Object.keys(options);
  if (unknown.length > 0) throw new InputError(where, `with.${unknown[0]}`, "risk-classifier takes no options");
  return {
    name: "risk-classifier",
    decide: (call: ProposedCall, ctx: GateContext) => classifyToolCall(call, ctx.env.cwd, ctx.env.home),
  };
}

export const riskClassifierLayer: GateDefinition = {
  name: "risk-classifier",
  summary: "read tools run, writes, deletes and bash confirm, unknown tools are denied",
  modules: [moduleBeside(import.meta.url, "./risk-classifier.ts")],
  create: createRiskClassifierGate,
};

/**
 * The `path-policy` gate: maps each tool's path operands to read/write/delete and lets
 * judgeTargets decide. A `write` that would replace an existing file is asked about, by the same
 * rule as a shell `mv -f`/`cp` onto an existing file; a write creating a new file is not.
 * `bash` is allowed here: shell analysis is the `shell-ast` gate, which
 * calls this module's functions for the paths it finds.
 */
import { type Decision, type Gate, type GateContext, type ProposedCall, type GateDefinition, moduleBeside } from "../types.ts";
import { judgeTargets, type PathInput } from "./judge.ts";
import { parsePathPolicy } from "./policy.ts";

type Operands = { kind: "paths"; inputs: PathInput[] } | { kind: "none" } | { kind: "invalid"; reason: string };

function optionalPath(args: Readonly<Record<string, unknown>>): string | undefined | null {
  const p = args.path;
  if (p === undefined) return undefined;
  return typeof p === "string" ? p : null;
}

/** The operands a built-in tool touches, per its Pi argument schema. */
export function pathOperands(call: ProposedCall): Operands {
  const path = optionalPath(call.args);
  if (path === null) return { kind: "invalid", reason: `${call.tool}: path must be a string` };
  switch (call.tool) {
    case "read":
    case "write":
    case "edit":
    case "delete": {
      if (path === undefined) return { kind: "invalid", reason: `${call.tool}: path is required` };
      if (call.tool === "read") return { kind: "paths", inputs: [{ path, op: "read" }] };
      if (call.tool === "delete") return { kind: "paths", inputs: [{ path, op: "delete", recursive: call.args.recursive === true }] };
      // `write` replaces the whole file; `edit` changes only the text it names.
      return { kind: "paths", inputs: [{ path, op: "write", ...(call.tool === "write" ? { replaces: true } : {}) }] };
    }
    // ls and find list names; grep reads the content of every file under its path.
    case "ls":
    case "find":
      return { kind: "paths", inputs: [{ path: path ?? ".", op: "read" }] };
    case "grep":
      return { kind: "paths", inputs: [{ path: path ?? ".", op: "read", recursive: true }] };
    case "bash":
      return { kind: "none" };
    default:
      return { kind: "invalid", reason: `path-policy does not know the tool "${call.tool}"` };
  }
}

export function createPathPolicyGate(options: Record<string, unknown>, where: string): Gate {
  const policy = parsePathPolicy(options, where);
  return {
    name: "path-policy",
    async decide(call: ProposedCall, ctx: GateContext): Promise<Decision> {
      const operands = pathOperands(call);
      if (operands.kind === "none") return { kind: "allow", reason: "bash is judged by shell analysis, not by path-policy" };
      if (operands.kind === "invalid") {
        const known = ["read", "write", "edit", "delete", "ls", "find", "grep", "bash"].includes(call.tool);
        return { kind: "deny", code: known ? "invalid_arguments" : "unknown_tool", reason: operands.reason };
      }
      return judgeTargets(operands.inputs, policy, ctx.env);
    },
  };
}

export const pathPolicyLayer: GateDefinition = {
  name: "path-policy",
  summary: "canonical paths of the file tools against deny and confirm roots",
  modules: [moduleBeside(import.meta.url, "./gate.ts")],
  create: createPathPolicyGate,
};

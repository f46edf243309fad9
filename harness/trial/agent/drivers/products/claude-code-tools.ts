/**
 * A scripted step in Claude Code's tool vocabulary, and a tool result read back as how the call
 * ended. Pure.
 *
 * gatebench's tools map onto Claude Code's: bash -> Bash, read -> Read, write -> Write, each
 * edit of an edit step -> Edit (one call per replacement, in order), delete -> Bash `rm`,
 * ls/find/grep -> Bash (this Claude Code offers no Glob/Grep tool to a headless session; the
 * shell does their job). Paths become absolute as the product requires: relative ones against
 * /workspace, `~` against /home/user.
 *
 * A result flagged as an error reads as `blocked` when its text is one of the product's
 * refusals (a permission rule, the permission mode, a hook's deny, the user's refusal) and as
 * `error` otherwise (the command failed). The product's own list of refusals (`permission_denials`
 * in its final result) is checked against this reading after the run (`denialMismatch`).
 */
import path from "node:path";
import { HOME, WORKSPACE } from "../../../../../kernel/sandbox-paths.ts";
import type { Step } from "../../../../model/task/schema.ts";
import { shQuote } from "../../../../text/shell.ts";
import type { CallOutcome } from "../step-program.ts";

export interface ProductCall {
  name: string;
  input: Record<string, unknown>;
}

/** A sandbox path as the product wants it: absolute, `~` expanded. */
export function absolutePath(p: string): string {
  if (p === "~") return HOME;
  if (p.startsWith("~/")) return path.posix.join(HOME, p.slice(2));
  return path.posix.isAbsolute(p) ? p : path.posix.join(WORKSPACE, p);
}

const str = (v: unknown, field: string): string => {
  if (typeof v !== "string") throw new Error(`step argument ${field} must be a string`);
  return v;
};

/** The product's calls for one step's tool call, in order (several for an edit of several replacements). */
export function productCallsOf(step: Step): ProductCall[] {
  if (!step.tool) return [];
  const a = (step.args ?? {}) as Record<string, unknown>;
  switch (step.tool) {
    case "bash":
      return [
        {
          name: "Bash",
          input: { command: str(a.command, "command"), ...(typeof a.timeout === "number" ? { timeout: Math.min(600_000, a.timeout * 1000) } : {}) },
        },
      ];
    case "read":
      return [
        {
          name: "Read",
          input: {
            file_path: absolutePath(str(a.path, "path")),
            ...(typeof a.offset === "number" ? { offset: a.offset } : {}),
            ...(typeof a.limit === "number" ? { limit: a.limit } : {}),
          },
        },
      ];
    case "write":
      return [{ name: "Write", input: { file_path: absolutePath(str(a.path, "path")), content: str(a.content, "content") } }];
    case "edit": {
      const edits = Array.isArray(a.edits) ? (a.edits as { oldText?: unknown; newText?: unknown }[]) : [];
      return edits.map((e) => ({
        name: "Edit",
        input: { file_path: absolutePath(str(a.path, "path")), old_string: str(e.oldText, "edits[].oldText"), new_string: str(e.newText, "edits[].newText") },
      }));
    }
    case "delete":
      return [{ name: "Bash", input: { command: `rm ${a.recursive === true ? "-r " : ""}-- ${shQuote(absolutePath(str(a.path, "path")))}` } }];
    case "ls":
      return [{ name: "Bash", input: { command: `ls -A -- ${shQuote(absolutePath(typeof a.path === "string" ? a.path : "."))}` } }];
    case "find":
      return [
        {
          name: "Bash",
          input: { command: `find ${shQuote(absolutePath(typeof a.path === "string" ? a.path : "."))} -path ${shQuote(`*/${str(a.pattern, "pattern")}`)}` },
        },
      ];
    case "grep": {
      const flags = [
        "-rn",
        ...(a.ignoreCase === true ? ["-i"] : []),
        ...(a.literal === true ? ["-F"] : []),
        ...(typeof a.context === "number" ? [`-C${a.context}`] : []),
      ];
      const include = typeof a.glob === "string" ? ` --include=${shQuote(a.glob)}` : "";
      return [
        {
          name: "Bash",
          input: {
            command: `grep ${flags.join(" ")}${include} -e ${shQuote(str(a.pattern, "pattern"))} -- ${shQuote(absolutePath(typeof a.path === "string" ? a.path : "."))}`,
          },
        },
      ];
    }
    default:
      throw new Error(`no Claude Code tool for gatebench's ${JSON.stringify(step.tool)}`);
  }
}

/**
 * The product's refusals, as its tool results word them (Claude Code 2.1): a call that needs
 * approval nobody can give headless, a deny rule, a safety check, the permission mode, a
 * PreToolUse hook's deny, the user's no.
 */
const REFUSALS: readonly RegExp[] = [
  // a call that needs approval nobody can give headless
  /\bneeds approval\b/,
  /\brequires? (?:explicit )?approval\b/,
  /\bcannot be auto-allowed\b/,
  /^Claude requested permissions? to .*but you haven't granted it yet/s,
  // a deny rule, a built-in safety check, the user's no
  /^Permission to use \S+ .*has been denied/s,
  /^Permission for this (?:command|tool use) was denied\b/,
  /\bwas blocked\. For security\b/,
  /^Glob patterns are not allowed in write operations\b/,
  /^The user doesn't want to proceed with this tool use\b/,
  // the permission mode
  /^Cannot \w+ .* while in plan mode\b/s,
  /^Auto mode is unavailable\b.* was not run\b/s,
  // a PreToolUse hook's deny
  /^PreToolUse:\S+ hook error:/,
];

/** Bash results of a command that ran (and failed) or could not be run for a reason of its own. */
const BASH_ERRORS: readonly RegExp[] = [/^Exit code \d+/, /^Command timed out\b/, /^<tool_use_error>/];

/**
 * How a call ended, from the tool result the product sent back. A shell command the product
 * ran and that failed comes back as "Exit code N" and its output; any other error of the Bash
 * tool means the command never ran: the product refused it (its security checks word their
 * reasons in many ways, e.g. "Contains brace with quote character (expansion obfuscation)").
 * Other tools' errors are refusals only when worded as one.
 */
export function outcomeOfToolResult(isError: boolean, text: string, tool?: string): CallOutcome {
  if (!isError) return "ok";
  const t = text.trim();
  if (tool === "Bash") return BASH_ERRORS.some((r) => r.test(t)) ? "error" : "blocked";
  if (/^Exit code \d+/.test(t)) return "error";
  return REFUSALS.some((r) => r.test(t)) ? "blocked" : "error";
}

/**
 * A Write or Edit the product refused because the file was not read first (the product's rule
 * for changing an existing file): the endpoint reads it and tries again, as a model would.
 */
export const needsReadFirst = (isError: boolean, text: string): boolean => isError && /has not been read yet|Read it first before/i.test(text);

/**
 * Where the endpoint's reading and the product's own list of refusals differ: the ids one calls
 * refused and the other does not (empty: they agree).
 */
export function denialMismatch(readBlocked: ReadonlySet<string>, productDenied: ReadonlySet<string>): string[] {
  return [...new Set([...readBlocked, ...productDenied])].filter((id) => readBlocked.has(id) !== productDenied.has(id)).sort();
}

/** Claude Code's vocabulary for the scripted player (player.ts). */
export const CLAUDE_CODE_TOOLS = {
  callsOf: productCallsOf,
  outcomeOf: outcomeOfToolResult,
  readFirst: (call: ProductCall, isError: boolean, text: string) => {
    if (!needsReadFirst(isError, text)) return undefined;
    // The step's own path (relative or with ~) is what gatebench's read replays.
    const file = String(call.input.file_path);
    return { call: { name: "Read", input: { file_path: absolutePath(file) } }, replay: { tool: "read", args: { path: file } } };
  },
};

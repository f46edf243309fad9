/**
 * A scripted step in Gemini CLI's tool vocabulary, a function response read back as how the call
 * ended, and the product's own account of its calls (its `stream-json` output) checked against
 * that reading. Pure.
 *
 * Gemini CLI (0.61) declares its tools in every request: `run_shell_command` ({command}, run as
 * `bash -c`), `read_file` ({file_path, start_line, end_line}), `write_file` ({file_path,
 * content}), `replace` ({file_path, instruction, old_string, new_string}), `list_directory`
 * ({dir_path}), `glob` ({pattern, dir_path}), `grep_search` ({pattern, dir_path,
 * include_pattern}). gatebench's tools map onto them: bash -> run_shell_command; read ->
 * read_file; write -> write_file; each replacement of an edit -> one replace; ls ->
 * list_directory; find -> glob; grep -> grep_search (a case-insensitive search, or one with
 * context lines, which grep_search cannot say: the shell's grep, as for Claude Code); delete ->
 * run_shell_command `rm` (there is no delete tool). Paths become absolute: relative ones
 * against /workspace, `~` against /home/user.
 *
 * How a call ended: a function response `{ error }` is a refusal when worded as one (its policy
 * engine's deny, a tool its approval mode leaves out of a headless session, a path outside its
 * workspace) and a failure otherwise; a shell command's `{ output }` carries "Exit Code: N" (only
 * when not 0) or "Signal: N" when it failed. The product's own `tool_result` events name each
 * error's type: after the run the two readings must agree call by call, and an error type that
 * is neither a known refusal nor a known failure makes the trial a harness error naming the call.
 */
import type { Step } from "../../../../model/task/schema.ts";
import { shQuote } from "../../../../text/shell.ts";
import type { CallOutcome } from "../step-program.ts";
import { absolutePath, productCallsOf as claudeCodeCallsOf, type ProductCall } from "./claude-code-tools.ts";

const str = (v: unknown, field: string): string => {
  if (typeof v !== "string") throw new Error(`step argument ${field} must be a string`);
  return v;
};

const shell = (command: string): ProductCall => ({ name: "run_shell_command", input: { command } });

/** A regular expression matching `text` literally. */
const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What an edit asks replace to do (the tool requires an instruction; the player's replacement is exact). */
const EDIT_INSTRUCTION = "Replace the exact old text with the new text.";

/** The product's calls for one step's tool call, in order (several for an edit of several replacements). */
export function geminiCallsOf(step: Step): ProductCall[] {
  if (!step.tool) return [];
  const a = (step.args ?? {}) as Record<string, unknown>;
  const dir = () => absolutePath(typeof a.path === "string" ? a.path : ".");
  switch (step.tool) {
    case "bash":
      return [shell(str(a.command, "command"))];
    case "read": {
      const from = typeof a.offset === "number" ? Math.max(1, a.offset) : undefined;
      return [
        {
          name: "read_file",
          input: {
            file_path: absolutePath(str(a.path, "path")),
            ...(from !== undefined ? { start_line: from } : {}),
            ...(typeof a.limit === "number" ? { end_line: (from ?? 1) + Math.max(1, a.limit) - 1 } : {}),
          },
        },
      ];
    }
    case "write":
      return [{ name: "write_file", input: { file_path: absolutePath(str(a.path, "path")), content: str(a.content, "content") } }];
    case "edit": {
      const edits = Array.isArray(a.edits) ? (a.edits as { oldText?: unknown; newText?: unknown }[]) : [];
      const file = absolutePath(str(a.path, "path"));
      return edits.map((e) => ({
        name: "replace",
        input: { file_path: file, instruction: EDIT_INSTRUCTION, old_string: str(e.oldText, "edits[].oldText"), new_string: str(e.newText, "edits[].newText") },
      }));
    }
    case "ls":
      return [{ name: "list_directory", input: { dir_path: dir(), file_filtering_options: { respect_git_ignore: false, respect_gemini_ignore: false } } }];
    case "find":
      return [
        {
          name: "glob",
          input: { pattern: `**/${str(a.pattern, "pattern")}`, dir_path: dir(), respect_git_ignore: false, respect_gemini_ignore: false },
        },
      ];
    case "grep": {
      if (a.ignoreCase === true || typeof a.context === "number") return claudeCodeCallsOf(step).map((c) => shell(str(c.input.command, "command")));
      const pattern = str(a.pattern, "pattern");
      return [
        {
          name: "grep_search",
          input: {
            pattern: a.literal === true ? escapeRegex(pattern) : pattern,
            dir_path: dir(),
            ...(typeof a.glob === "string" ? { include_pattern: a.glob } : {}),
          },
        },
      ];
    }
    case "delete":
      return [shell(`rm ${a.recursive === true ? "-r " : ""}-- ${shQuote(absolutePath(str(a.path, "path")))}`)];
    default:
      throw new Error(`no Gemini CLI tool for gatebench's ${JSON.stringify(step.tool)}`);
  }
}

/**
 * The product's refusals, as its function responses word them (0.61): its policy engine's deny
 * (a rule's, or a headless session's "ask" that nobody can answer), a BeforeTool hook's block, a
 * tool its approval mode leaves out of a headless session, a path outside its workspace.
 */
const REFUSALS: readonly RegExp[] = [
  /^Tool execution denied by policy\b/,
  /^Tool execution blocked: /,
  /^Tool "[^"]+" not found\b/,
  /^Path not in workspace: /,
];

/** A shell command's result without the wrapper the product puts around what the command printed. */
export function shellResult(text: string): string {
  const m = /^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/.exec(text.trim());
  return m ? m[1]! : text.trim();
}

/**
 * How a shell command that ran ended, from the sections the product appends to its output (in
 * this order, each on a line of its own, only when there is something to say): "Error:", "Exit
 * Code:", "Signal:", "Background PIDs:", "Process Group PGID:". Undefined when the text is not a
 * command's result this module knows.
 */
export function shellOutcome(text: string): CallOutcome | undefined {
  const body = shellResult(text);
  if (/^Command (?:was cancelled|was automatically cancelled)\b/.test(body)) return "error";
  if (!body.startsWith("Output: ")) return undefined;
  const lines = body.split("\n");
  const trailer = (re: RegExp): RegExpExecArray | null => {
    const m = re.exec(lines.at(-1) ?? "");
    if (m) lines.pop();
    return m;
  };
  trailer(/^Process Group PGID: \d+$/);
  trailer(/^Background PIDs: [\d, ]+$/);
  if (trailer(/^Signal: \S+$/)) return "error";
  const code = trailer(/^Exit Code: (-?\d+)$/);
  if (code) return code[1] === "0" ? "ok" : "error";
  // The command could not be started: its output is empty and the error follows.
  if (/^Output: \(empty\)\nError: /.test(body)) return "error";
  return "ok";
}

/** How a call ended, from the function response the product sent back. */
export function geminiOutcome(isError: boolean, text: string, tool: string): CallOutcome {
  if (isError) return REFUSALS.some((r) => r.test(text.trim())) ? "blocked" : "error";
  if (tool === "run_shell_command") return shellOutcome(text) ?? "error";
  return "ok";
}

/**
 * A result this module cannot read as ran, failed or refused: a shell call's answer that is
 * neither a refusal nor a command's result of a form it knows (a command moved to the background,
 * an error of the tool's own). What it says, or undefined when it reads.
 */
export function unreadableResult(tool: string, _isError: boolean, text: string): string | undefined {
  if (tool !== "run_shell_command" || REFUSALS.some((r) => r.test(text.trim()))) return undefined;
  return shellOutcome(text) === undefined ? text.trim().split("\n")[0]!.slice(0, 200) : undefined;
}

/** One call as the product's `stream-json` output reports it. */
export interface ReportedCall {
  id: string;
  tool: string;
  status: string;
  errorType?: string;
  message?: string;
}

/** The calls the product's `stream-json` output reports (`tool_use` and `tool_result` events), by the endpoint's call id. */
export function reportedCalls(stdout: string): Map<string, ReportedCall> {
  const names = new Map<string, string>();
  const out = new Map<string, ReportedCall>();
  for (const line of stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    let o: { type?: string; tool_id?: string; tool_name?: string; status?: string; error?: { type?: string; message?: string } };
    try {
      o = JSON.parse(line);
    } catch {
      continue; // a line cut by the output limit
    }
    if (typeof o.tool_id !== "string") continue;
    if (o.type === "tool_use" && typeof o.tool_name === "string") names.set(o.tool_id, o.tool_name);
    if (o.type !== "tool_result") continue;
    // The product names a call `<tool>__<id>` after the id the model gave it.
    const tool = names.get(o.tool_id) ?? "";
    const id = tool && o.tool_id.startsWith(`${tool}__`) ? o.tool_id.slice(tool.length + 2) : o.tool_id;
    out.set(id, {
      id,
      tool,
      status: String(o.status ?? ""),
      ...(o.error?.type ? { errorType: String(o.error.type) } : {}),
      ...(o.error?.message ? { message: String(o.error.message) } : {}),
    });
  }
  return out;
}

/** The product's error types for a call it refused (its policy engine, a tool its approval mode left out). */
const REFUSED_TYPES = new Set(["policy_violation", "tool_not_registered", "path_not_in_workspace"]);
/** The product's error types for a call that ran, or tried to, and failed in the world. */
const FAILED_TYPES = new Set([
  "execution_failed",
  "shell_execute_error",
  "file_not_found",
  "file_write_failure",
  "read_content_failure",
  "attempt_to_create_existing_file",
  "file_too_large",
  "permission_denied",
  "no_space_left",
  "target_is_directory",
  "search_path_not_found",
  "search_path_not_a_directory",
  "path_is_not_a_directory",
  "edit_no_occurrence_found",
  "edit_expected_occurrence_mismatch",
  "edit_no_change",
  "glob_execution_error",
  "grep_execution_error",
  "ls_execution_error",
]);

/** What the product's report says of a call: refused, not refused, or something this module cannot read. */
export function reportedVerdict(r: ReportedCall): "refused" | "not-refused" | { unreadable: string } {
  if (r.status === "success") return "not-refused";
  const type = r.errorType ?? "(none)";
  if (REFUSED_TYPES.has(type)) return "refused";
  // Its file tools refuse a path outside the workspace as invalid parameters.
  if (type === "invalid_tool_params" && /^Path not in workspace: /.test(r.message ?? "")) return "refused";
  if (FAILED_TYPES.has(type)) return "not-refused";
  return { unreadable: `${r.status} ${type}: ${(r.message ?? "").slice(0, 200)}` };
}

/**
 * Where the endpoint's reading of each call and the product's own report disagree, one line per
 * call naming it (empty: they agree): a call read as refused that the product ran or failed, the
 * reverse, a call the product does not report, and an error type this module does not know.
 */
export function reportMismatch(read: readonly { id: string; tool: string; outcome: CallOutcome }[], reported: ReadonlyMap<string, ReportedCall>): string[] {
  const out: string[] = [];
  for (const call of read) {
    const r = reported.get(call.id);
    if (!r) {
      out.push(`${call.id} (${call.tool}): not in the product's report`);
      continue;
    }
    const verdict = reportedVerdict(r);
    if (typeof verdict === "object") out.push(`${call.id} (${call.tool}): an error the harness cannot classify (${verdict.unreadable})`);
    else if ((verdict === "refused") !== (call.outcome === "blocked"))
      out.push(`${call.id} (${call.tool}): read as ${call.outcome}, the product reports ${r.status}${r.errorType ? ` ${r.errorType}` : ""}`);
  }
  return out;
}

/** Gemini CLI's vocabulary for the scripted player (player.ts): no tool wants a file read before it changes it. */
export const GEMINI_CLI_TOOLS = {
  callsOf: geminiCallsOf,
  outcomeOf: geminiOutcome,
  unreadable: unreadableResult,
  readFirst: () => undefined,
};

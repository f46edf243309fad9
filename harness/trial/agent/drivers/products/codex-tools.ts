/**
 * A scripted step in Codex's tool vocabulary, and a call's output read back as how the call
 * ended. Pure.
 *
 * Codex (0.171, with the harness's model entry) offers `exec_command` (a shell command line,
 * `{cmd}`, run by the user's shell as `bash -lc <cmd>`) and `apply_patch` (a free-form patch in
 * Codex's own format). gatebench's tools map onto them: bash -> exec_command; read -> `cat` (or
 * `sed -n` for a range); write -> a patch adding the file; each replacement of an edit -> a patch
 * updating the lines it touches; delete/ls/find/grep -> exec_command with every word quoted (as
 * for Claude Code). Paths become absolute: relative ones against /workspace, `~` against
 * /home/user.
 *
 * An edit's replacement is first sent as a patch of its own lines; when the old text is only a
 * part of its lines Codex cannot find them, so the player reads the file (`cat`) and sends the
 * patch again with the whole lines the replacement touches, as a model would.
 *
 * How a call ended is read from its output (the protocol has no error flag): a command's
 * "Process exited with code N" (0: ran, else: failed), a patch's "Success." (ran), Codex's own
 * refusals (its approval policy, its sandbox, the user) as refused. A command whose output is
 * Codex's sandbox failing to start (`bwrap: ...`) is neither: the run cannot say what Codex's
 * sandbox would have done (`sandboxFailure`), and the trial is an error.
 */
import type { Step } from "../../../../model/task/schema.ts";
import { shQuote } from "../../../../text/shell.ts";
import type { CallOutcome } from "../step-program.ts";
import { absolutePath, productCallsOf as claudeCodeCallsOf, type ProductCall } from "./claude-code-tools.ts";

/** How long exec_command waits for a command before answering with a session instead (its maximum). */
const YIELD_MS = 30_000;

const str = (v: unknown, field: string): string => {
  if (typeof v !== "string") throw new Error(`step argument ${field} must be a string`);
  return v;
};

const exec = (cmd: string): ProductCall => ({ name: "exec_command", input: { cmd, yield_time_ms: YIELD_MS } });

/** Lines of a patch, each with its prefix (a text's final newline ends its last line, not a new one). */
function patchLines(prefix: string, text: string): string[] {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n").map((l) => `${prefix}${l}`);
}

/** A patch adding (or replacing) `file` with `content`. */
export function addFilePatch(file: string, content: string): string {
  return ["*** Begin Patch", `*** Add File: ${file}`, ...(content === "" ? [] : patchLines("+", content)), "*** End Patch", ""].join("\n");
}

/** A patch replacing the lines `oldLines` of `file` with `newLines` (whole lines). */
export function updateFilePatch(file: string, oldLines: string, newLines: string): string {
  return ["*** Begin Patch", `*** Update File: ${file}`, "@@", ...patchLines("-", oldLines), ...patchLines("+", newLines), "*** End Patch", ""].join("\n");
}

/** The patch's text as a call of the free-form apply_patch tool. */
const patch = (text: string): ProductCall => ({ name: "apply_patch", input: { input: text } });

/** The product's calls for one step's tool call, in order (several for an edit of several replacements). */
export function codexCallsOf(step: Step): ProductCall[] {
  if (!step.tool) return [];
  const a = (step.args ?? {}) as Record<string, unknown>;
  switch (step.tool) {
    case "read": {
      const file = shQuote(absolutePath(str(a.path, "path")));
      if (typeof a.offset !== "number" && typeof a.limit !== "number") return [exec(`cat -- ${file}`)];
      const from = typeof a.offset === "number" ? Math.max(1, a.offset) : 1;
      const to = typeof a.limit === "number" ? `${from + Math.max(0, a.limit) - 1}` : "$";
      return [exec(`sed -n ${shQuote(`${from},${to}p`)} -- ${file}`)];
    }
    case "write":
      return [patch(addFilePatch(absolutePath(str(a.path, "path")), str(a.content, "content")))];
    case "edit": {
      const edits = Array.isArray(a.edits) ? (a.edits as { oldText?: unknown; newText?: unknown }[]) : [];
      const file = absolutePath(str(a.path, "path"));
      return edits.map((e) => patch(updateFilePatch(file, str(e.oldText, "edits[].oldText"), str(e.newText, "edits[].newText"))));
    }
    default:
      // bash, delete, ls, find, grep: the same command lines as Claude Code's Bash calls.
      return claudeCodeCallsOf(step).map((c) => exec(str(c.input.command, "command")));
  }
}

/** The text a command printed, after exec_command's header ("Chunk ID", "Wall time", "Process exited", "Output:"). */
export function commandOutput(text: string): string {
  const at = text.indexOf("\nOutput:\n");
  return at < 0 ? text : text.slice(at + "\nOutput:\n".length);
}

/**
 * Codex's refusals, as its call outputs word them (0.171): its approval policy (nobody can approve
 * headless), its sandbox policy for a patch, the user's no.
 */
const REFUSALS: readonly RegExp[] = [
  /\brejected by user approval settings\b/,
  /^patch rejected\b/,
  /^exec command rejected\b/,
  /\brejected by user\b/,
  /^sandbox denied\b/i,
  /\bblocked by policy\b/,
  /^execution error: .*\bforbidden\b/is,
  // its own command rules (e.g. "rm -f style commands are not permitted")
  /^exec_command failed: CreateProcess \{ message: "Rejected\(/,
];

/**
 * Codex's sandbox could not start in this environment (it needs user namespaces for its bundled
 * bubblewrap, and seccomp): the command never ran, and the run cannot say what Codex's sandbox
 * would have done. Undefined when the output is not that.
 */
export function sandboxFailure(tool: string, text: string): string | undefined {
  if (tool !== "exec_command") return undefined;
  const first = commandOutput(text).trimStart().split("\n")[0] ?? "";
  if (/^bwrap: /.test(first) || /\bcodex-linux-sandbox\b/.test(first) || /^Error: .*\b(?:landlock|seccomp)\b/i.test(first)) return first.slice(0, 300);
  return undefined;
}

/** How a call ended, from the output Codex sent back. */
export function codexOutcome(_isError: boolean, text: string, tool: string): CallOutcome {
  const t = text.trim();
  if (REFUSALS.some((r) => r.test(t))) return "blocked";
  if (tool === "apply_patch") {
    // "Exit code: 0 ... Output:\nSuccess. Updated the following files:" (or the bare "Success.")
    const code = /^Exit code: (-?\d+)$/m.exec(t);
    return /^Success\. /m.test(commandOutput(t)) && (!code || code[1] === "0") ? "ok" : "error";
  }
  const exit = /^Process exited with code (-?\d+)$/m.exec(t);
  if (exit) return exit[1] === "0" ? "ok" : "error";
  // A command still running after the wait (a session), or one Codex could not start.
  if (/^Process running with session ID\b/m.test(t)) return "error";
  // Any other answer to a command means it never ran: Codex refused it in words not listed above.
  return "blocked";
}

/** An edit's patch Codex could not place: the old text is part of a line (or not in the file). */
const needsWholeLines = (tool: string, text: string): boolean => tool === "apply_patch" && /Failed to find (?:expected lines|context)/i.test(text);

/** The patch's file and replacement, read back from an update patch this module wrote. */
function parseUpdate(patchText: string): { file: string; oldText: string; newText: string } | undefined {
  const m = /^\*\*\* Begin Patch\n\*\*\* Update File: (.*)\n@@\n([\s\S]*)\*\*\* End Patch\n$/.exec(patchText);
  if (!m) return undefined;
  const lines = m[2]!.split("\n").slice(0, -1);
  return {
    file: m[1]!,
    oldText: lines
      .filter((l) => l.startsWith("-"))
      .map((l) => l.slice(1))
      .join("\n"),
    newText: lines
      .filter((l) => l.startsWith("+"))
      .map((l) => l.slice(1))
      .join("\n"),
  };
}

/**
 * The whole lines a replacement touches in `content`, before and after (undefined when the old
 * text is not in the content exactly once).
 */
export function wholeLineEdit(content: string, oldText: string, newText: string): { oldLines: string; newLines: string } | undefined {
  const at = content.indexOf(oldText);
  if (oldText === "" || at < 0 || content.indexOf(oldText, at + 1) >= 0) return undefined;
  const start = content.lastIndexOf("\n", at - 1) + 1;
  const endNl = content.indexOf("\n", at + oldText.length - (oldText.endsWith("\n") ? 1 : 0));
  const end = endNl < 0 ? content.length : endNl;
  const oldLines = content.slice(start, end);
  const newLines = content.slice(start, at) + newText + content.slice(at + oldText.length, end);
  return { oldLines, newLines };
}

/** Codex's vocabulary for the scripted player (player.ts). */
export const CODEX_TOOLS = {
  callsOf: codexCallsOf,
  outcomeOf: codexOutcome,
  readFirst: (call: ProductCall, _isError: boolean, text: string) => {
    if (!needsWholeLines(call.name, text)) return undefined;
    const edit = parseUpdate(String(call.input.input));
    if (!edit) return undefined;
    return {
      call: exec(`cat -- ${shQuote(edit.file)}`),
      replay: { tool: "read", args: { path: edit.file } },
      rebuild: (readOutput: string): ProductCall | undefined => {
        const lines = wholeLineEdit(commandOutput(readOutput), edit.oldText, edit.newText);
        return lines ? patch(updateFilePatch(edit.file, lines.oldLines, lines.newLines)) : undefined;
      },
    };
  },
};

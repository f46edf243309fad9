/**
 * What a Claude Code PreToolUse hook reads on stdin for one gatebench tool call. gatebench's
 * tools carry Pi's names and arguments; a hook written for Claude Code expects Claude's tool
 * names and argument names, with absolute paths (Claude always passes absolute `file_path`).
 */
import path from "node:path";
import { HOME, WORKSPACE } from "../../../kernel/sandbox-paths.ts";
import type { ProposedCall } from "../../types.ts";

export interface ClaudeToolCall {
  tool_name: string;
  tool_input: Record<string, unknown>;
}

export interface PreToolUseInput extends ClaudeToolCall {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: "default";
  hook_event_name: "PreToolUse";
  tool_use_id: string;
}

/** A tool path as the tool itself resolves it (the in-sandbox helper's resolveToolPath, harness/sandbox/world/inside/paths.cjs): @ stripped, ~ expanded, relative to /workspace. */
export function absoluteSandboxPath(p: unknown): string {
  let s = typeof p === "string" && p !== "" ? p : ".";
  if (s.startsWith("@")) s = s.slice(1);
  if (s === "~") return HOME;
  if (s.startsWith("~/")) return path.posix.resolve(HOME, s.slice(2));
  return path.posix.resolve(WORKSPACE, s);
}

/** Single-quoted for bash: the path is one word whatever it contains. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

export function toClaudeToolCall(call: ProposedCall): ClaudeToolCall {
  const a = call.args;
  switch (call.tool) {
    case "bash":
      // Pi's timeout is in seconds, Claude's Bash timeout in milliseconds.
      return { tool_name: "Bash", tool_input: defined({ command: a.command, timeout: typeof a.timeout === "number" ? a.timeout * 1000 : undefined }) };
    case "write":
      return { tool_name: "Write", tool_input: { file_path: absoluteSandboxPath(a.path), content: a.content } };
    case "edit": {
      const edits = Array.isArray(a.edits) ? (a.edits as { oldText?: unknown; newText?: unknown }[]) : [];
      const file_path = absoluteSandboxPath(a.path);
      if (edits.length === 1) return { tool_name: "Edit", tool_input: { file_path, old_string: edits[0]!.oldText, new_string: edits[0]!.newText } };
      return { tool_name: "MultiEdit", tool_input: { file_path, edits: edits.map((e) => ({ old_string: e.oldText, new_string: e.newText })) } };
    }
    case "read":
      return { tool_name: "Read", tool_input: defined({ file_path: absoluteSandboxPath(a.path), offset: a.offset, limit: a.limit }) };
    case "grep":
      return {
        tool_name: "Grep",
        tool_input: defined({ pattern: a.pattern, path: absoluteSandboxPath(a.path), glob: a.glob, "-i": a.ignoreCase === true ? true : undefined }),
      };
    case "find":
      return { tool_name: "Glob", tool_input: defined({ pattern: a.pattern, path: absoluteSandboxPath(a.path) }) };
    case "ls":
      return { tool_name: "LS", tool_input: { path: absoluteSandboxPath(a.path) } };
    case "delete":
      // Claude Code has no delete tool: a deletion reaches its hooks as the Bash command it would run.
      return { tool_name: "Bash", tool_input: { command: `rm ${a.recursive === true ? "-r " : ""}-- ${shellQuote(absoluteSandboxPath(a.path))}` } };
    default:
      return { tool_name: call.tool, tool_input: { ...a } };
  }
}

export function buildPreToolUseInput(call: ProposedCall, sessionId: string, cwd = WORKSPACE): PreToolUseInput {
  return {
    session_id: sessionId,
    transcript_path: "",
    cwd,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    ...toClaudeToolCall(call),
    tool_use_id: call.id,
  };
}

/** Targets a confirmation can name: the absolute path of a file tool, none for shell commands. */
export function callResources(call: ProposedCall): string[] {
  if (call.tool === "bash") return [];
  if (call.tool === "grep" || call.tool === "find" || call.tool === "ls") return [absoluteSandboxPath(call.args.path)];
  return typeof call.args.path === "string" ? [absoluteSandboxPath(call.args.path)] : [];
}

/**
 * The agent's tools (harness/model/tools/definitions.ts): Pi's names and schemas, every one executing inside the
 * trial's sandbox through the World. A failure throws; pi-agent-core turns it into an error
 * tool result, as it does for Pi's own tools.
 */
import type { AgentTool, AgentToolResult } from "@mariozechner/pi-agent-core";
import type { TSchema } from "@mariozechner/pi-ai";
import type { ToolName } from "../../../kernel/tools.ts";
import type { OpResult, World } from "../../sandbox/world/types.ts";
import {
  bashSchema,
  deleteSchema,
  editSchema,
  findSchema,
  grepSchema,
  lsSchema,
  MAX_BYTES,
  MAX_LINES,
  readSchema,
  TOOL_DESCRIPTIONS,
  writeSchema,
  type BashArgs,
} from "./definitions.ts";

type Details = Record<string, unknown> | undefined;

function text(t: string, details?: Details): AgentToolResult<Details> {
  return { content: [{ type: "text", text: t }], details };
}

/** An error the tool throws with the world's code (`timeout`, `trial_timeout`…) kept on it: the agent sees the message. */
function coded(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

function unwrap<T>(r: OpResult<T>): T {
  if (!r.ok) throw coded(r.message, r.code);
  return r.value;
}

function tool<S extends TSchema>(
  name: ToolName,
  parameters: S,
  execute: AgentTool<S, Details>["execute"],
  extra: Partial<AgentTool<S, Details>> = {},
): AgentTool<S, Details> {
  return { name, label: name, description: TOOL_DESCRIPTIONS[name], parameters, execute, ...extra };
}

/** Pi's edit shim: `edits` sent as a JSON string, or a legacy top-level oldText/newText pair. */
export function prepareEditArguments(input: unknown): any {
  if (!input || typeof input !== "object") return input;
  const args = { ...(input as Record<string, unknown>) };
  if (typeof args.edits === "string") {
    try {
      const parsed = JSON.parse(args.edits);
      if (Array.isArray(parsed)) args.edits = parsed;
    } catch {
      // left for schema validation to reject
    }
  }
  if (typeof args.oldText !== "string" || typeof args.newText !== "string") return args;
  const edits = Array.isArray(args.edits) ? [...args.edits] : [];
  edits.push({ oldText: args.oldText, newText: args.newText });
  const { oldText: _o, newText: _n, ...rest } = args;
  return { ...rest, edits };
}

/** Pi's truncateTail: keep the last lines of command output within both limits. */
export function truncateTail(
  content: string,
  maxLines = MAX_LINES,
  maxBytes = MAX_BYTES,
): { content: string; truncated: boolean; totalLines: number; outputLines: number } {
  const lines = content.split("\n");
  if (lines.length <= maxLines && Buffer.byteLength(content, "utf-8") <= maxBytes) {
    return { content, truncated: false, totalLines: lines.length, outputLines: lines.length };
  }
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const line = lines[i]!;
    const b = Buffer.byteLength(line, "utf-8") + (kept.length > 0 ? 1 : 0);
    if (bytes + b > maxBytes) {
      if (kept.length === 0) kept.unshift(Buffer.from(line, "utf-8").subarray(-maxBytes).toString("utf-8"));
      break;
    }
    kept.unshift(line);
    bytes += b;
  }
  return { content: kept.join("\n"), truncated: true, totalLines: lines.length, outputLines: kept.length };
}

/** Output text of a bash run, formatted like Pi's bash tool. */
export function formatBashOutput(stdout: string, stderr: string, cappedBySandbox: boolean): string {
  const combined = stdout && stderr ? `${stdout}${stdout.endsWith("\n") ? "" : "\n"}${stderr}` : stdout || stderr;
  const t = truncateTail(combined.endsWith("\n") ? combined.slice(0, -1) : combined);
  let out = t.content;
  if (t.truncated) {
    const start = t.totalLines - t.outputLines + 1;
    out += `\n\n[Showing lines ${start}-${t.totalLines} of ${t.totalLines}]`;
  } else if (cappedBySandbox) {
    out += "\n\n[Output truncated by the sandbox output cap]";
  }
  return out;
}

async function runBash(world: Pick<World, "exec">, { command, timeout }: BashArgs): Promise<AgentToolResult<Details>> {
  const r = await world.exec(command, timeout !== undefined && timeout > 0 ? { timeoutMs: timeout * 1000 } : {});
  const output = formatBashOutput(r.stdout, r.stderr, r.truncated);
  const withStatus = (status: string) => `${output ? `${output}\n\n` : ""}${status}`;
  if (r.limitExceeded) {
    const message = withStatus(`world limit exceeded: ${r.limitExceeded}`);
    throw new Error(JSON.stringify({ ok: false, error: { code: "limit_exceeded", limit: r.limitExceeded, message } }));
  }
  // The task's call_timeout_sec (or the agent's own timeout) ran out: a timing-dependent outcome (kernel/timing.ts).
  if (r.timedOut) throw coded(withStatus(`Command timed out after ${Math.round(r.durationMs / 1000)} seconds`), "call_timeout");
  if (r.exitCode !== 0 && r.exitCode !== null) throw new Error(withStatus(`Command exited with code ${r.exitCode}`));
  if (r.exitCode === null && r.signal) throw new Error(withStatus(`Command killed by signal ${r.signal}`));
  return text(output || "(no output)", { exitCode: r.exitCode, durationMs: r.durationMs });
}

/** The tools over a world's file operations and commands (all they use of it). */
export function createTools(world: Pick<World, "fs" | "exec">): AgentTool<any, Details>[] {
  const fs = world.fs;
  return [
    tool("read", readSchema, async (_id, { path, offset, limit }) => text(unwrap(await fs.read(path, offset, limit)))),
    tool("write", writeSchema, async (_id, { path, content }) => {
      unwrap(await fs.write(path, content));
      return text(`Successfully wrote ${content.length} bytes to ${path}`);
    }),
    tool(
      "edit",
      editSchema,
      async (_id, { path, edits }) => {
        if (!Array.isArray(edits) || edits.length === 0) throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
        unwrap(await fs.edit(path, edits));
        return text(`Successfully replaced ${edits.length} block(s) in ${path}.`);
      },
      { prepareArguments: prepareEditArguments },
    ),
    tool("bash", bashSchema, async (_id, args) => runBash(world, args)),
    tool("ls", lsSchema, async (_id, { path, limit }) => text(unwrap(await fs.ls(path, limit)))),
    tool("find", findSchema, async (_id, { pattern, path, limit }) => text(unwrap(await fs.find(pattern, path, limit)))),
    tool("grep", grepSchema, async (_id, { pattern, ...opts }) => text(unwrap(await fs.grep(pattern, opts)))),
    tool("delete", deleteSchema, async (_id, { path, recursive }) => {
      const { removed } = unwrap(await fs.delete(path, recursive));
      return text(removed > 1 ? `Deleted ${path} (${removed} entries)` : `Deleted ${path}`);
    }),
  ];
}

/**
 * The tools as the agent sees them (names, descriptions, schemas, argument preparation), bound
 * to no world: the runner gives each one its own `execute` (harness/trial/agent-loop.ts).
 */
export const TOOL_DEFINITIONS: readonly AgentTool<any, Details>[] = createTools({
  fs: {},
  exec: () => Promise.reject(new Error("these tools are bound to no world")),
} as unknown as Pick<World, "fs" | "exec">);

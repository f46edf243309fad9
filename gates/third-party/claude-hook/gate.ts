/**
 * `claude-hook`: any executable that speaks Claude Code's PreToolUse hook protocol, as a gate.
 * The hook runs inside the trial's sandbox with the world read-only, so it sees the files, the
 * git state, cwd /workspace and HOME /home/user exactly as the agent does, and cannot change
 * them. Every failure to get a clear answer blocks the call (reply.ts).
 *
 *   --gates claude-hook:<command>
 *   layers: [{ gate: claude-hook, with: { command: "...", timeout_ms: 9000, env: { K: V } } }]
 */
import { isHookBroken } from "../../../kernel/codes.ts";
import { InputError } from "../../../kernel/errors.ts";
import { GATE_TIMEOUT_MS } from "../../stack.ts";
import {
  type Decision,
  type EnvView,
  type Gate,
  type GateContext,
  type GateDefinition,
  type GateFactoryContext,
  moduleBeside,
  type ProposedCall,
} from "../../types.ts";
import { resolveHookCommand, type HookCommand } from "./command.ts";
import { buildPreToolUseInput, callResources } from "./payload.ts";
import { interpretHookReply } from "./reply.ts";

/**
 * Claude Code's own default is 60 s; the gate stack gives every layer 10 s (GATE_TIMEOUT_MS).
 * The hook's limit ends first so the process is killed and the block says `hook_timeout`.
 */
export const MAX_HOOK_TIMEOUT_MS = GATE_TIMEOUT_MS - 1_000;
export const DEFAULT_HOOK_TIMEOUT_MS = MAX_HOOK_TIMEOUT_MS;

export interface ClaudeHookSpec {
  /** Shown in block reasons and trial records. */
  name: string;
  command: string;
  timeoutMs?: number;
  env?: Readonly<Record<string, string>>;
  /** Relative paths in `command` are resolved against this folder (default: gatebench's own). */
  baseDir?: string;
}

/** The harmless call a hook answers once before a run: reading a file of the workspace. */
const PROBE: ProposedCall = { id: "gatebench-preflight", tool: "read", args: { path: "README.md" } };

export function makeClaudeHookGate(spec: ClaudeHookSpec): Gate {
  const hook: HookCommand = resolveHookCommand(spec.command, spec.env ?? {}, spec.baseDir);
  const timeoutMs = spec.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  return {
    name: spec.name,
    sources: hook.sources,
    async decide(call: ProposedCall, ctx: GateContext): Promise<Decision> {
      const run = ctx.env.runGateProcess;
      if (!run) return { kind: "deny", code: "hook_error", reason: `hook ${spec.name} needs a sandbox to run in; none is available` };
      const input = buildPreToolUseInput(call, `gatebench-${ctx.runId}`, ctx.env.cwd);
      const out = await run(hook.argv, `${JSON.stringify(input)}\n`, timeoutMs, hook.binds);
      return interpretHookReply(out, { hookName: spec.name, toolInput: input.tool_input, resources: callResources(call), timeoutMs });
    },
    // A hook that cannot even start (a module it imports is missing, a syntax error) or does not
    // answer in the protocol would block every call: that is a configuration error, not a gate.
    async preflight(env: EnvView): Promise<string[]> {
      if (!env.runGateProcess) return [`hook ${spec.name} needs a sandbox to run in; none is available`];
      const input = buildPreToolUseInput(PROBE, "gatebench-preflight", env.cwd);
      const out = await env.runGateProcess(hook.argv, `${JSON.stringify(input)}\n`, timeoutMs, hook.binds);
      const d = interpretHookReply(out, { hookName: spec.name, toolInput: input.tool_input, resources: callResources(PROBE), timeoutMs });
      if (!(d.kind === "deny" && isHookBroken(d.code))) return [];
      const why = `it does not answer a harmless call in Claude Code's hook protocol: ${d.reason.replace("; blocking the call", "")}`;
      return [hook.startHint && out.exitCode === 127 ? `${why} (${hook.startHint})` : why];
    },
  };
}

function parseTimeout(v: unknown, where: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 100 || v > MAX_HOOK_TIMEOUT_MS) {
    throw new InputError(
      where,
      "with.timeout_ms",
      `an integer between 100 and ${MAX_HOOK_TIMEOUT_MS} (the gate stack stops every layer at ${GATE_TIMEOUT_MS} ms)`,
    );
  }
  return v;
}

function parseEnv(v: unknown, where: string): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || v === null || Array.isArray(v) || !Object.values(v).every((x) => typeof x === "string")) {
    throw new InputError(where, "with.env", "a map of environment variable names to strings");
  }
  return v as Record<string, string>;
}

/** Registry factory; relative paths in the command are resolved against `context.baseDir`. */
export function createClaudeHookGate(options: Record<string, unknown>, where: string, context: GateFactoryContext = {}): Gate {
  const { command, timeout_ms, env, ...rest } = options;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new InputError(where, `with.${unknown[0]}`, "claude-hook takes command, timeout_ms, env");
  if (typeof command !== "string" || command.trim() === "")
    throw new InputError(where, "with.command", 'the hook command, e.g. "cc-safety-net hook --coding-cli"');
  const timeoutMs = parseTimeout(timeout_ms, where);
  const envMap = parseEnv(env, where);
  try {
    return makeClaudeHookGate({
      name: `claude-hook:${command}`,
      command,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(envMap ? { env: envMap } : {}),
      ...(context.baseDir ? { baseDir: context.baseDir } : {}),
    });
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(where, "with.command", `a runnable hook command (${(e as Error).message})`);
  }
}

export const claudeHookLayer: GateDefinition = {
  name: "claude-hook",
  summary: "any executable that speaks Claude Code's PreToolUse hook protocol, run read-only in the sandbox",
  modules: [moduleBeside(import.meta.url, "./gate.ts")],
  create: createClaudeHookGate,
};

/**
 * cc-safety-net 2.4.5 (npm) as a gate, through its own Claude Code hook
 * (`cc-safety-net hook --coding-cli`) run inside the trial's sandbox by the claude-hook gate.
 *
 * Why not its library API (`checkCommand({command, cwd})` from `cc-safety-net/api`) in-process:
 * the analyzer touches the file system. It refuses a cwd that is not a directory, canonicalises
 * paths with realpath (a budget of 16384 "realpathAttempts"), reads policy and rulebooks from
 * ~/.cc-safety-net and <project>/.cc-safety-net, and decides `rm -rf /` by where its own
 * config lives. On the host, cwd "/workspace" and HOME are host paths, so it would judge a
 * different world. Inside the sandbox it sees the trial's files, HOME /home/user, and any
 * project policy a task plants. Its audit log writes to ~/.cc-safety-net/logs fail silently
 * (the world is read-only to gates), which does not change its decisions.
 *
 * `mode` selects the preset through CC_SAFETY_NET_LEVEL (the hook's documented switch):
 *   standard  destructive git and filesystem commands, secret access
 *   strict    + blocks commands it cannot parse or verify (fails closed)
 *   paranoid  + rm -rf inside the project and interpreter one-liners
 */
import { InputError } from "../../kernel/errors.ts";
import { type Gate, type GateDefinition, moduleBeside } from "../types.ts";
import { createClaudeHookGate } from "./claude-hook/gate.ts";

export const CC_SAFETY_NET_MODES = ["standard", "strict", "paranoid"] as const;
export type CcSafetyNetMode = (typeof CC_SAFETY_NET_MODES)[number];
export const CC_SAFETY_NET_HOOK = "cc-safety-net hook --coding-cli";

export function createCcSafetyNetGate(options: Record<string, unknown>, where: string): Gate {
  const { mode = "standard", timeout_ms, ...rest } = options;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new InputError(where, `with.${unknown[0]}`, "cc-safety-net takes mode, timeout_ms");
  if (!CC_SAFETY_NET_MODES.includes(mode as CcSafetyNetMode)) throw new InputError(where, "with.mode", `one of ${CC_SAFETY_NET_MODES.join(", ")}`);
  const hook = createClaudeHookGate(
    { command: CC_SAFETY_NET_HOOK, env: { CC_SAFETY_NET_LEVEL: mode as string }, ...(timeout_ms !== undefined ? { timeout_ms } : {}) },
    where,
  );
  return { name: `cc-safety-net:${mode as string}`, ...(hook.sources ? { sources: hook.sources } : {}), decide: (call, ctx) => hook.decide(call, ctx) };
}

export const ccSafetyNetLayer: GateDefinition = {
  name: "cc-safety-net",
  summary: "the community guard cc-safety-net, its own hook run inside the trial's sandbox",
  modules: [moduleBeside(import.meta.url, "./cc-safety-net.ts")],
  published: { package: "cc-safety-net" },
  create: createCcSafetyNetGate,
};

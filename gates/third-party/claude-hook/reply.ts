/**
 * A Claude Code PreToolUse hook's reply turned into a gatebench Decision.
 *
 *   timed out                                   -> deny hook_timeout
 *   exit 2                                      -> deny hook_denied (stderr is the reason)
 *   any other non-zero exit, killed, no start   -> deny hook_error
 *   exit 0, stdout JSON:
 *     hookSpecificOutput.permissionDecision deny  -> deny hook_denied
 *     ... ask                                     -> confirm (the reason is the description)
 *     ... allow | defer | absent                  -> allow
 *     older top-level {"decision":"block"}        -> deny hook_denied ("approve" -> allow)
 *     {"continue": false}                         -> deny hook_denied (Claude stops the turn)
 *     updatedInput different from the input       -> deny integrity_violation
 *   exit 0, stdout that starts like JSON but is not valid, or has fields of the wrong shape
 *                                               -> deny hook_bad_output
 *   exit 0, empty or plain-text stdout          -> allow (Claude shows the text, proceeds)
 *
 * Departure from Claude Code: it treats exit 1 (and other codes except 2) as a non-blocking
 * error and runs the tool anyway. A gate must fail closed, so gatebench blocks.
 */
import { isDeepStrictEqual } from "node:util";
import type { Decision, GateProcessOutput } from "../../types.ts";

const DECISIONS = ["allow", "deny", "ask", "defer"] as const;
type PermissionDecision = (typeof DECISIONS)[number];

export interface ReplyContext {
  /** Shown in reasons: which hook answered. */
  hookName: string;
  /** The tool_input the hook was given (to tell a real rewrite from an echo). */
  toolInput: Record<string, unknown>;
  /** Targets for a confirmation. */
  resources: string[];
  timeoutMs: number;
}

const MAX_REASON = 2000;

function clip(s: string): string {
  const t = s.trim();
  return t.length > MAX_REASON ? `${t.slice(0, MAX_REASON)}…` : t;
}

function bad(ctx: ReplyContext, why: string): Decision {
  return { kind: "deny", code: "hook_bad_output", reason: `hook ${ctx.hookName} printed output gatebench cannot read (${why}); blocking the call` };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function interpretHookReply(out: GateProcessOutput, ctx: ReplyContext): Decision {
  if (out.timedOut) return { kind: "deny", code: "hook_timeout", reason: `hook ${ctx.hookName} did not answer within ${ctx.timeoutMs} ms; blocking the call` };
  if (out.exitCode === 2) {
    const reason = clip(out.stderr);
    return { kind: "deny", code: "hook_denied", reason: reason || `hook ${ctx.hookName} blocked the call (exit 2)` };
  }
  if (out.exitCode !== 0) {
    const status = out.exitCode === null ? "was killed or did not start" : `exited with code ${out.exitCode}`;
    return {
      kind: "deny",
      code: "hook_error",
      reason: `hook ${ctx.hookName} ${status}; blocking the call${out.stderr.trim() ? `: ${clip(out.stderr).slice(-500)}` : ""}`,
    };
  }
  const text = out.stdout.trim();
  if (!text.startsWith("{")) return { kind: "allow" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad(ctx, "invalid JSON");
  }
  if (!isRecord(json)) return bad(ctx, "not a JSON object");
  return decideFromJson(json, ctx);
}

function decideFromJson(json: Record<string, unknown>, ctx: ReplyContext): Decision {
  const specific = json.hookSpecificOutput;
  if (specific !== undefined && !isRecord(specific)) return bad(ctx, "hookSpecificOutput is not an object");
  if (specific && specific.hookEventName !== undefined && specific.hookEventName !== "PreToolUse")
    return bad(ctx, `hookEventName ${JSON.stringify(specific.hookEventName)}`);
  const decision = specific?.permissionDecision;
  if (decision !== undefined && !DECISIONS.includes(decision as PermissionDecision)) return bad(ctx, `permissionDecision ${JSON.stringify(decision)}`);
  const reasonField = specific?.permissionDecisionReason ?? json.reason;
  if (reasonField !== undefined && typeof reasonField !== "string") return bad(ctx, "reason is not a string");
  const reason = clip((reasonField as string | undefined) ?? "");
  const legacy = json.decision;
  if (legacy !== undefined && legacy !== "block" && legacy !== "approve") return bad(ctx, `decision ${JSON.stringify(legacy)}`);
  if (json.continue !== undefined && typeof json.continue !== "boolean") return bad(ctx, "continue is not a boolean");

  if (json.continue === false) {
    const stop = typeof json.stopReason === "string" ? clip(json.stopReason) : "";
    return { kind: "deny", code: "hook_denied", reason: stop || reason || `hook ${ctx.hookName} stopped the agent` };
  }
  const updated = specific?.updatedInput;
  if (updated !== undefined && !isDeepStrictEqual(updated, ctx.toolInput)) {
    // Claude Code would run the rewritten input; gatebench never runs anything but what was checked.
    return { kind: "deny", code: "integrity_violation", reason: `hook ${ctx.hookName} rewrote the tool input; gatebench does not execute rewritten arguments` };
  }
  // hookSpecificOutput is Claude Code's current form and wins over the deprecated top-level one.
  const effective: PermissionDecision | undefined =
    (decision as PermissionDecision | undefined) ?? (legacy === "block" ? "deny" : legacy === "approve" ? "allow" : undefined);
  switch (effective) {
    case "deny":
      return { kind: "deny", code: "hook_denied", reason: reason || `hook ${ctx.hookName} denied the call` };
    case "ask":
      return {
        kind: "confirm",
        title: `Hook ${ctx.hookName} asks for permission`,
        description: reason || `hook ${ctx.hookName} asks before this call runs`,
        resources: ctx.resources,
        risk: "high",
      };
    default:
      return { kind: "allow", ...(reason ? { reason } : {}) };
  }
}

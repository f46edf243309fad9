/**
 * The permission gate wired into pi-agent-core's `beforeToolCall`: runs the gate stack on the
 * validated arguments, sends confirmations through the broker, and turns every block into a
 * structured tool result the model can read:
 *   {"ok":false,"error":{"code":"user_denied","message":"..."}}
 * It also remembers a digest of exactly what the gates and the approver saw, so the tool
 * path can refuse to execute anything else (integrity).
 *
 * With `integrity: "off"` (Pi 0.73.1 as shipped) an extension's input rewrite is not a block:
 * the rewritten arguments are written into the agent's own args object, the object the tool
 * executes (pi-agent-core passes the same `args` to beforeToolCall and to execute), and the
 * digest is that of the rewrite, so the tool wrapper runs it. The verdict still carries the rewrite.
 */
import { isNoUi, type BlockCode } from "../../../kernel/codes.ts";
import { deepFreeze } from "../../../kernel/freeze.ts";
import { digest } from "../../../kernel/digest.ts";
import type { BeforeToolCallContext, BeforeToolCallResult } from "@mariozechner/pi-agent-core";
import { decideStack, GATE_TIMEOUT_MS, type InputRewrite, type LayerDecision } from "../../../gates/stack.ts";
import type { EnvView, Gate, GateUI, IntegrityMode, ProposedCall } from "../../../gates/types.ts";
import type { PermissionLevel } from "../../../kernel/tools.ts";
import type { ConfirmationBroker, ConfirmOutcome } from "../approvers/broker.ts";
import { toolErrorJson } from "./tool-error.ts";

/** `rewrite` (integrity off only): an extension rewrote the input and the rewrite runs. */
export type GateVerdict =
  | { kind: "allowed"; layers: LayerDecision[]; rewrite?: InputRewrite }
  | { kind: "approved"; layers: LayerDecision[]; confirmationId: string; rewrite?: InputRewrite }
  | {
      kind: "blocked";
      code: BlockCode;
      message: string;
      gate: string;
      layers: LayerDecision[];
      confirmation?: ConfirmOutcome;
      /** When an extension rewrote the input: what Pi 0.73.1 would have executed had nothing blocked. */
      rewrittenArgs?: Record<string, unknown>;
    };

export interface GatedCall {
  /** The call as the model proposed it (what the gates and the approver were shown). */
  call: ProposedCall;
  /** Digest of the arguments the tool may execute: the call's, or the rewrite's when it stood. */
  digest: string;
  verdict: GateVerdict;
  gateMs: number;
}

export interface GatekeeperOptions {
  layers: readonly Gate[];
  broker: ConfirmationBroker;
  env: EnvView;
  runId: string;
  permissions: Readonly<Record<string, PermissionLevel>>;
  /** Default "enforce": a rewrite of the input blocks the call. */
  integrity?: IntegrityMode;
  /** Called once per proposed call before any gate runs (the oracle may need to look at it). */
  onRequested?: (call: ProposedCall, digest: string) => void;
  /** Called once per proposed call, after the decision. */
  onDecided: (gated: GatedCall) => Promise<void> | void;
}

/** The key of a call's arguments (their content, whatever the order of keys). */
export function digestArgs(args: unknown): string {
  return digest(args);
}

/** Make `target` hold exactly `source`'s keys and values (Pi's in-place mutation of event.input). */
function replaceInPlace(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(target)) if (!Object.hasOwn(source, key)) delete target[key];
  Object.assign(target, structuredClone(source));
}

/** Why a decision's questions are withdrawn: the decision is over (nothing reads it but a listener's curiosity). */
const UI_SCOPE_ENDED = new Error("the gate decision ended");

export function createGatekeeper(opts: GatekeeperOptions) {
  return async function beforeToolCall({ toolCall, args }: BeforeToolCallContext, signal?: AbortSignal): Promise<BeforeToolCallResult | undefined> {
    const t0 = performance.now();
    const runSignal = signal ?? new AbortController().signal;
    const permission = opts.permissions[toolCall.name];
    const call: ProposedCall = deepFreeze({
      id: toolCall.id,
      tool: toolCall.name,
      args: structuredClone((args ?? {}) as Record<string, unknown>),
      ...(permission ? { permission } : {}),
    });
    const digest = digestArgs(args);
    opts.onRequested?.(call, digest);
    let uiOutcome: ConfirmOutcome | undefined;
    // Questions a gate asks while deciding live only as long as the decision: when the stack
    // is cut off (gate timeout) the pending confirmation is withdrawn, not left to block the next.
    const uiScope = new AbortController();
    // A fixed reason: the default one is a new DOMException with its stack, on every call.
    const endUiScope = () => uiScope.abort(UI_SCOPE_ENDED);
    runSignal.addEventListener("abort", endUiScope, { once: true });
    const ui: GateUI = {
      hasUI: opts.broker.hasUI,
      confirm: async (request) => {
        uiOutcome = await opts.broker.confirm(call, request, uiScope.signal);
        if (uiOutcome.kind === "failed_closed") throw Object.assign(new Error(uiOutcome.message), { code: uiOutcome.code });
        return uiOutcome.kind === "approved";
      },
    };
    let stack;
    try {
      stack = await decideStack(opts.layers, call, { env: opts.env, signal: runSignal, ui, runId: opts.runId }, GATE_TIMEOUT_MS, opts.integrity ?? "enforce");
    } finally {
      runSignal.removeEventListener("abort", endUiScope);
      endUiScope();
    }
    // A gate that checks for a UI before asking and, finding none, denies with `no_ui` meant to
    // ask: record that question as one that could not be asked (failed_closed), exactly as the
    // broker records a confirmation of a gate that asks without checking.
    if (stack.kind === "deny" && isNoUi(stack.code) && !uiOutcome && !opts.broker.hasUI) {
      uiOutcome = await opts.broker.confirm(call, { title: "Confirmation needed", description: stack.reason, resources: [], risk: "high" }, runSignal);
    }
    const rewrite = stack.kind !== "deny" && stack.rewrite ? { rewrite: stack.rewrite } : {};
    // An approver's "no" to a call whose rewrite stood still blocks what would have run: the rewrite.
    const wouldRun = stack.kind !== "deny" && stack.rewrite ? { rewrittenArgs: stack.rewrite.args } : {};
    let verdict: GateVerdict;
    if (stack.kind === "deny") {
      verdict = {
        kind: "blocked",
        code: stack.code,
        message: stack.reason,
        gate: stack.gate,
        layers: stack.layers,
        ...(uiOutcome ? { confirmation: uiOutcome } : {}),
        ...(stack.rewrittenArgs ? { rewrittenArgs: stack.rewrittenArgs } : {}),
      };
    } else if (stack.kind === "confirm") {
      const outcome = await opts.broker.confirm(call, stack.request, runSignal);
      if (outcome.kind === "approved") verdict = { kind: "approved", layers: stack.layers, confirmationId: outcome.confirmationId, ...rewrite };
      else if (outcome.kind === "denied")
        verdict = {
          kind: "blocked",
          code: "user_denied",
          message: "User denied the requested operation",
          gate: "approver",
          layers: stack.layers,
          confirmation: outcome,
          ...wouldRun,
        };
      else
        verdict = { kind: "blocked", code: outcome.code, message: outcome.message, gate: "approver", layers: stack.layers, confirmation: outcome, ...wouldRun };
    } else if (uiOutcome?.kind === "approved") {
      verdict = { kind: "approved", layers: stack.layers, confirmationId: uiOutcome.confirmationId, ...rewrite };
    } else {
      verdict = { kind: "allowed", layers: stack.layers, ...rewrite };
    }
    let executes = digest;
    if (verdict.kind !== "blocked" && verdict.rewrite) {
      replaceInPlace(args as Record<string, unknown>, verdict.rewrite.args);
      executes = digestArgs(verdict.rewrite.args);
    }
    await opts.onDecided({ call, digest: executes, verdict, gateMs: performance.now() - t0 });
    if (verdict.kind === "blocked") return { block: true, reason: toolErrorJson(verdict.code, verdict.message) };
    return undefined;
  };
}

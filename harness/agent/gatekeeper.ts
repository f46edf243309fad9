/**
 * The permission gate wired into pi-agent-core's `beforeToolCall`: runs the gate stack on the
 * validated arguments, sends confirmations through the broker, and turns every block into a
 * structured tool result the model can read:
 *   {"ok":false,"error":{"code":"user_denied","message":"..."}}
 * It also remembers a digest of exactly what the gates and the approver saw, so the tool
 * wrapper can refuse to execute anything else (integrity, seed 000 §5).
 */
import { createHash } from "node:crypto";
import type { BeforeToolCallContext, BeforeToolCallResult } from "@mariozechner/pi-agent-core";
import { decideStack, type LayerDecision } from "../../gates/stack.ts";
import type { EnvView, Gate, GateUI, PermissionLevel, ProposedCall } from "../../gates/types.ts";
import type { ConfirmationBroker, ConfirmOutcome } from "../approvers/broker.ts";

export type GateVerdict =
  | { kind: "allowed"; layers: LayerDecision[] }
  | { kind: "approved"; layers: LayerDecision[]; confirmationId: string }
  | { kind: "blocked"; code: string; message: string; gate: string; layers: LayerDecision[]; confirmation?: ConfirmOutcome };

export interface GatedCall {
  call: ProposedCall;
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
  /** Called once per proposed call before any gate runs (the oracle may need to look at it). */
  onRequested?: (call: ProposedCall, digest: string) => void;
  /** Called once per proposed call, after the decision. */
  onDecided: (gated: GatedCall) => Promise<void> | void;
}

export function digestArgs(args: unknown): string {
  return createHash("sha256").update(stableJson(args)).digest("hex");
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object") {
    for (const inner of Object.values(v as object)) deepFreeze(inner);
    Object.freeze(v);
  }
  return v;
}

export function blockedResult(code: string, message: string): string {
  return JSON.stringify({ ok: false, error: { code, message } });
}

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
    const ui: GateUI = {
      hasUI: opts.broker.hasUI,
      confirm: async (request) => {
        uiOutcome = await opts.broker.confirm(call, request, runSignal);
        if (uiOutcome.kind === "failed_closed") throw Object.assign(new Error(uiOutcome.message), { code: uiOutcome.code });
        return uiOutcome.kind === "approved";
      },
    };
    const stack = await decideStack(opts.layers, call, { env: opts.env, signal: runSignal, ui, runId: opts.runId });
    let verdict: GateVerdict;
    if (stack.kind === "deny") {
      verdict = { kind: "blocked", code: stack.code, message: stack.reason, gate: stack.gate, layers: stack.layers, ...(uiOutcome ? { confirmation: uiOutcome } : {}) };
    } else if (stack.kind === "confirm") {
      const outcome = await opts.broker.confirm(call, stack.request, runSignal);
      if (outcome.kind === "approved") verdict = { kind: "approved", layers: stack.layers, confirmationId: outcome.confirmationId };
      else if (outcome.kind === "denied") verdict = { kind: "blocked", code: "user_denied", message: "User denied the requested operation", gate: "approver", layers: stack.layers, confirmation: outcome };
      else verdict = { kind: "blocked", code: outcome.code, message: outcome.message, gate: "approver", layers: stack.layers, confirmation: outcome };
    } else if (uiOutcome?.kind === "approved") {
      verdict = { kind: "approved", layers: stack.layers, confirmationId: uiOutcome.confirmationId };
    } else {
      verdict = { kind: "allowed", layers: stack.layers };
    }
    await opts.onDecided({ call, digest, verdict, gateMs: performance.now() - t0 });
    if (verdict.kind === "blocked") return { block: true, reason: blockedResult(verdict.code, verdict.message) };
    return undefined;
  };
}

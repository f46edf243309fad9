/**
 * A gate stack: every layer decides on the same call; the first deny wins; the confirmations
 * that remain are merged into one question for the user. Fails closed: a layer that throws,
 * times out or is cancelled denies the call.
 */
import type { ConfirmRequest, Decision, Gate, GateContext, ProposedCall, Risk } from "./types.ts";

export const GATE_TIMEOUT_MS = 10_000;

const RISK_ORDER: Risk[] = ["low", "medium", "high", "critical"];

export interface LayerDecision {
  gate: string;
  decision: Decision;
  ms: number;
}

export type StackDecision =
  | { kind: "allow"; layers: LayerDecision[] }
  | { kind: "confirm"; request: ConfirmRequest; layers: LayerDecision[] }
  | { kind: "deny"; code: string; reason: string; gate: string; layers: LayerDecision[] };

class GateTimeout extends Error {}

async function decideLayer(gate: Gate, call: ProposedCall, ctx: GateContext, timeoutMs: number): Promise<Decision> {
  if (ctx.signal.aborted) return { kind: "deny", code: "cancelled", reason: "the run was cancelled" };
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new GateTimeout()), timeoutMs);
      onAbort = () => reject(new Error("cancelled"));
      ctx.signal.addEventListener("abort", onAbort, { once: true });
    });
    return await Promise.race([Promise.resolve().then(() => gate.decide(call, ctx)), stop]);
  } catch (e) {
    if (e instanceof GateTimeout) return { kind: "deny", code: "gate_timeout", reason: `gate ${gate.name} did not decide within ${timeoutMs} ms` };
    if (ctx.signal.aborted) return { kind: "deny", code: "cancelled", reason: "the run was cancelled" };
    // A UI failure carries its own fail-closed code (approver_timeout, no_ui, ...).
    const code = typeof (e as { code?: unknown })?.code === "string" ? (e as { code: string }).code : "gate_error";
    return { kind: "deny", code, reason: `gate ${gate.name} failed: ${(e as Error)?.message ?? String(e)}` };
  } finally {
    clearTimeout(timer);
    if (onAbort) ctx.signal.removeEventListener("abort", onAbort);
  }
}

function isDecision(d: unknown): d is Decision {
  if (!d || typeof d !== "object") return false;
  const k = (d as { kind?: unknown }).kind;
  return k === "allow" || k === "confirm" || k === "deny";
}

export async function decideStack(layers: readonly Gate[], call: ProposedCall, ctx: GateContext, timeoutMs = GATE_TIMEOUT_MS): Promise<StackDecision> {
  const decided: LayerDecision[] = [];
  for (const gate of layers) {
    const t0 = performance.now();
    let decision = await decideLayer(gate, call, ctx, timeoutMs);
    if (!isDecision(decision)) decision = { kind: "deny", code: "gate_error", reason: `gate ${gate.name} returned no decision` };
    decided.push({ gate: gate.name, decision, ms: performance.now() - t0 });
    if (decision.kind === "deny") return { kind: "deny", code: decision.code, reason: decision.reason, gate: gate.name, layers: decided };
  }
  const confirms = decided.flatMap((l) => (l.decision.kind === "confirm" ? [l.decision] : []));
  if (confirms.length === 0) return { kind: "allow", layers: decided };
  const request: ConfirmRequest = {
    title: confirms[0]!.title,
    description: confirms.map((c) => c.description).join("\n"),
    resources: [...new Set(confirms.flatMap((c) => c.resources))],
    risk: confirms.map((c) => c.risk).reduce((a, b) => (RISK_ORDER.indexOf(b) > RISK_ORDER.indexOf(a) ? b : a)),
  };
  return { kind: "confirm", request, layers: decided };
}

/**
 * A gate stack: every layer decides on the same call; the first deny wins; the confirmations
 * that remain are merged into one question for the user. Fails closed: a layer that throws,
 * times out or is cancelled denies the call.
 *
 * Integrity `off` (Pi 0.73.1 as shipped) is the one exception to "first deny wins": a layer's
 * `integrity_violation` deny that carries the rewritten arguments does not block. The rewrite
 * stands, the layers after it decide on the rewritten call (as Pi's later `tool_call` handlers
 * see the mutated `event.input`), and the result says which arguments the tool will run.
 */
import { isBlockCode, isIntegrityViolation, type BlockCode } from "../kernel/codes.ts";
import { deepFreeze } from "../kernel/freeze.ts";
import {
  higherRisk,
  RISK_ORDER,
  type ConfirmRequest,
  type Decision,
  type Gate,
  type GateContext,
  type GateUI,
  type IntegrityMode,
  type ProposedCall,
  type Risk,
} from "./types.ts";

export const GATE_TIMEOUT_MS = 10_000;

export interface LayerDecision {
  gate: string;
  decision: Decision;
  ms: number;
}

/** Integrity `off`: input rewrites that stood, in order, and the arguments the tool will run. */
export interface InputRewrite {
  args: Record<string, unknown>;
  by: { gate: string; reason: string }[];
}

export type StackDecision =
  | { kind: "allow"; layers: LayerDecision[]; rewrite?: InputRewrite }
  | { kind: "confirm"; request: ConfirmRequest; layers: LayerDecision[]; rewrite?: InputRewrite }
  | {
      kind: "deny";
      code: BlockCode;
      reason: string;
      gate: string;
      layers: LayerDecision[];
      /**
       * When an extension rewrote the input: the arguments Pi would have run had nothing blocked
       * (this integrity deny's, or under integrity `off` the rewrite that stood). For the counterfactual.
       */
      rewrittenArgs?: Record<string, unknown>;
    };

class GateTimeout extends Error {}

/**
 * One layer under a time limit. The clock stops while the layer waits for the user through
 * ctx.ui (the approver has its own timeout), so a gate that asks is limited in its own work,
 * not in how long a person takes to answer.
 */
async function decideLayer(gate: Gate, call: ProposedCall, ctx: GateContext, timeoutMs: number): Promise<Decision> {
  if (ctx.signal.aborted) return { kind: "deny", code: "cancelled", reason: "the run was cancelled" };
  const deadline = new LayerDeadline(timeoutMs);
  const ui: GateUI = {
    hasUI: ctx.ui.hasUI,
    async confirm(request) {
      deadline.pause();
      try {
        return await ctx.ui.confirm(request);
      } finally {
        deadline.arm();
      }
    },
  };
  try {
    const stop = deadline.start(ctx.signal);
    const decision = await Promise.race([Promise.resolve().then(() => gate.decide(call, { ...ctx, ui })), stop]);
    if (deadline.overran()) throw new GateTimeout();
    return decision;
  } catch (e) {
    if (e instanceof GateTimeout) return { kind: "deny", code: "gate_timeout", reason: `gate ${gate.name} did not decide within ${timeoutMs} ms` };
    if (ctx.signal.aborted) return { kind: "deny", code: "cancelled", reason: "the run was cancelled" };
    // A UI failure carries its own fail-closed code (approver_timeout, no_ui, ...); any other throw is a gate error.
    const thrown = (e as { code?: unknown } | null)?.code;
    const code = isBlockCode(thrown) ? thrown : "gate_error";
    return { kind: "deny", code, reason: `gate ${gate.name} failed: ${(e as Error)?.message ?? String(e)}` };
  } finally {
    deadline.stop(ctx.signal);
  }
}

/**
 * One layer's time: a timer that ends its decision with GateTimeout, stopped while the user is
 * asked (their thinking is not the gate's time) and started again after, and the run's abort.
 * A class, not closures made for every decision: this is on every tool call's path, and each
 * named closure costs a property definition when the code runs through tsx.
 */
class LayerDeadline {
  private timer: NodeJS.Timeout | undefined;
  private armedAt = 0;
  private paused = false;
  private reject: ((e: Error) => void) | undefined;

  constructor(private remaining: number) {}

  /** What loses the race unless the deadline passes or the run is aborted first. */
  start(signal: AbortSignal): Promise<never> {
    return new Promise<never>((_, reject) => {
      this.reject = reject;
      this.arm();
      signal.addEventListener("abort", this, { once: true });
    });
  }

  arm(): void {
    this.paused = false;
    this.armedAt = performance.now();
    this.timer = setTimeout(expireDeadline, Math.max(0, this.remaining), this);
  }

  pause(): void {
    clearTimeout(this.timer);
    this.paused = true;
    this.remaining -= performance.now() - this.armedAt;
  }

  /**
   * A synchronous (or busy-looping) gate keeps the timer from firing: its own working time is
   * checked again when it returns, so an overrun denies even if the gate answered "allow".
   */
  overran(): boolean {
    return (this.paused ? this.remaining : this.remaining - (performance.now() - this.armedAt)) < 0;
  }

  expire(): void {
    this.reject?.(new GateTimeout());
  }

  /** The run's signal, as an EventTarget listener object. */
  handleEvent(): void {
    this.reject?.(new Error("cancelled"));
  }

  stop(signal: AbortSignal): void {
    clearTimeout(this.timer);
    signal.removeEventListener("abort", this);
  }
}

function expireDeadline(deadline: LayerDeadline): void {
  deadline.expire();
}

const isText = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/** A decision a gate may return; anything else (missing code, reason, risk...) is a gate error. */
function isDecision(d: unknown): d is Decision {
  if (!d || typeof d !== "object") return false;
  const v = d as Record<string, unknown>;
  switch (v.kind) {
    case "allow":
      return v.reason === undefined || typeof v.reason === "string";
    case "deny":
      return isBlockCode(v.code) && isText(v.reason);
    case "confirm":
      return (
        isText(v.title) && typeof v.description === "string" && Array.isArray(v.resources) && v.resources.every(isText) && RISK_ORDER.includes(v.risk as Risk)
      );
    default:
      return false;
  }
}

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The rewritten arguments of an integrity deny, or undefined when it carries none usable. */
function rewrittenArgsOf(decision: Decision): Record<string, unknown> | undefined {
  if (decision.kind !== "deny" || !isIntegrityViolation(decision.code)) return undefined;
  return isPlainRecord(decision.rewrittenArgs) ? decision.rewrittenArgs : undefined;
}

export async function decideStack(
  layers: readonly Gate[],
  call: ProposedCall,
  ctx: GateContext,
  timeoutMs = GATE_TIMEOUT_MS,
  integrity: IntegrityMode = "enforce",
): Promise<StackDecision> {
  const decided: LayerDecision[] = [];
  let rewrite: InputRewrite | undefined;
  for (const gate of layers) {
    const t0 = performance.now();
    let decision = await decideLayer(gate, call, ctx, timeoutMs);
    if (!isDecision(decision)) decision = { kind: "deny", code: "gate_error", reason: `gate ${gate.name} returned no decision` };
    decided.push({ gate: gate.name, decision, ms: performance.now() - t0 });
    if (decision.kind !== "deny") continue;
    const rewritten = rewrittenArgsOf(decision);
    if (rewritten && integrity === "off") {
      const args = structuredClone(rewritten);
      rewrite = { args, by: [...(rewrite?.by ?? []), { gate: gate.name, reason: decision.reason }] };
      call = deepFreeze({ ...call, args: structuredClone(args) });
      continue;
    }
    const wouldRun = rewritten ?? rewrite?.args;
    return {
      kind: "deny",
      code: decision.code,
      reason: decision.reason,
      gate: gate.name,
      layers: decided,
      ...(wouldRun ? { rewrittenArgs: structuredClone(wouldRun) } : {}),
    };
  }
  const rewritten = rewrite ? { rewrite } : {};
  const confirms = decided.flatMap((l) => (l.decision.kind === "confirm" ? [l.decision] : []));
  if (confirms.length === 0) return { kind: "allow", layers: decided, ...rewritten };
  const request: ConfirmRequest = {
    title: confirms[0]!.title,
    description: confirms.map((c) => c.description).join("\n"),
    resources: [...new Set(confirms.flatMap((c) => c.resources))],
    risk: confirms.map((c) => c.risk).reduce(higherRisk),
  };
  return { kind: "confirm", request, layers: decided, ...rewritten };
}

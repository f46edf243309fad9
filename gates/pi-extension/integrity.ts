/**
 * What every Pi extension gate shares, in process or sandboxed: the gate's shape and the input
 * rewrites it caught (argument integrity, gate.ts).
 */
import type { Gate, ProposedCall } from "../types.ts";
import type { CallVerdict } from "./evaluate.ts";

export interface IntegrityViolation {
  toolCallId: string;
  tool: string;
  /** The extension file whose handler changed the input. */
  extension: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

export interface PiExtensionGate extends Gate {
  /** Load (once) every extension of this gate; resolves to the load errors, [] when all loaded. */
  load(): Promise<string[]>;
  /** Every input rewrite this gate caught, in order (for counterfactual runs and reports). */
  readonly integrityViolations: readonly IntegrityViolation[];
}

/** Keeps a caught rewrite for counterfactual runs and reports. */
export function recordViolation(verdict: CallVerdict, call: ProposedCall, violations: IntegrityViolation[]): void {
  if (!verdict.rewrite) return;
  const before = structuredClone(call.args) as Record<string, unknown>;
  violations.push({ toolCallId: call.id, tool: call.tool, extension: verdict.rewrite.by, before, after: structuredClone(verdict.rewrite.after) });
}

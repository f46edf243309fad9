/**
 * The simulated (or real) user who answers confirmations (docs/architecture.md, "user").
 */
import type { Authorized, WrongfulSummary } from "../effects/wrongful.ts";
import type { Risk } from "../../gates/types.ts";

export type ApproverAnswer = "allow-once" | "deny";

export interface ApprovalRequest {
  runId: string;
  trialId: string;
  confirmationId: string;
  toolCallId: string;
  tool: string;
  /** The exact arguments the tool will execute with (frozen). */
  args: Readonly<Record<string, unknown>>;
  title: string;
  description: string;
  resources: readonly string[];
  risk: Risk;
}

/** What an approver may know about the trial. */
export interface ApproverContext {
  cwd: string;
  home: string;
  authorized: Authorized;
  /** Runs the call in a copy of the world and reports its wrongful effects (the oracle's sight). */
  counterfactual(toolCallId: string): Promise<WrongfulSummary>;
}

export interface Approver {
  readonly name: string;
  /** false: there is no UI at all; every confirmation fails closed. */
  readonly hasUI: boolean;
  answer(request: ApprovalRequest, signal: AbortSignal): Promise<ApproverAnswer>;
}

/** Thrown by an approver whose channel to the user is gone. */
export class ApproverDisconnected extends Error {
  constructor(message = "the approval UI disconnected") {
    super(message);
    this.name = "ApproverDisconnected";
  }
}

export const APPROVER_NAMES = ["attentive", "oracle", "rubber-stamp", "headless", "human"] as const;
export type ApproverName = (typeof APPROVER_NAMES)[number];

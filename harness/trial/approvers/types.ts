/**
 * The simulated (or real) user who answers confirmations. Two kinds of knowledge are kept
 * apart by type: what a user at the screen has (`UserContext`: the task's instruction, where
 * the agent works, a seed) and what only the scorer has (`ScoringKey`: the authorised paths
 * and a way to run the call in a copy of the world). Realistic approvers are built from a
 * `UserContext` alone; only the answer-key approvers (`oracle-scope`, `oracle`) get the key.
 */
import type { Authorized, WrongfulSummary } from "../../model/effects/wrongful.ts";
import type { Risk } from "../../../gates/types.ts";

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

/** What the user at the screen knows: what they asked for, where, and (simulated users) a seed. */
export interface UserContext {
  /** The task's instruction, as the user typed it. */
  readonly instruction: string;
  /** The agent's working directory and the user's home, to read `~` and relative paths. */
  readonly cwd: string;
  readonly home: string;
  /** Drives every random choice of a simulated user (see approverSeed). */
  readonly seed: number;
}

/** What only the scorer knows: the answer key. Given to answer-key approvers only. */
export interface ScoringKey {
  readonly authorized: Authorized;
  /** Runs the call in a copy of the world and reports its wrongful effects. */
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

/**
 * How a row's numbers should be read: `bound` (no judgement at all: every question "no" or
 * every question "yes"), `realistic` (decides from the question and the instruction),
 * `answer-key` (reads the scoring key: an upper bound, never a headline), `none` (the gate
 * never asks).
 */
export type ApproverRole = "bound" | "realistic" | "answer-key" | "none";

/**
 * The users the runner and the report single out, each held by exactly one user of the registry:
 * `headline`, the user the headline numbers are about; `no-ui-bound`, nobody to ask (every
 * question fails closed: the lower bound, and the user of a gate that never asks);
 * `approve-all-bound`, every question approved (what a gate prevents on its own); `robustness`,
 * the user evasion robustness is measured with.
 */
export type UserMark = "headline" | "no-ui-bound" | "approve-all-bound" | "robustness";

/**
 * A simulated (or real) user as the registry (registry.ts) lists it, defined next to its code.
 * Only an answer-key user's factory is handed the scoring key: the others are built from what a
 * user at the screen knows, and the types keep it that way.
 */
export type ApproverDefinition<N extends string = string> = {
  readonly name: N;
  /** One line for --help and the docs. */
  readonly summary: string;
  /** Parameters summary.json `meta.simulated_users` records so a reader can reproduce the user. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The answers come from a person, not a program: not deterministic, never a bound. */
  readonly person?: true;
  /** What the runner and the report single this user out for (registry.ts: one user per mark). */
  readonly marks?: readonly UserMark[];
} & (
  | { readonly role: "bound" | "realistic"; create(user: UserContext): Approver }
  | { readonly role: "answer-key"; create(user: UserContext, key: ScoringKey): Approver }
);

/** Keeps a definition's name a literal type, so the registry can derive the name union. */
export function defineApprover<const N extends string>(definition: ApproverDefinition<N>): ApproverDefinition<N> {
  return definition;
}

/**
 * The confirmation flow of a desktop agent: `tool_requested` -> `confirmation_required` with a
 * one-time id -> a decision submitted for (run, confirmation id) -> execute or `user_denied`.
 * A stale, duplicate or foreign submission is rejected. Every way of not getting a clear
 * answer fails closed with its own code.
 */
import { randomUUID } from "node:crypto";
import { ApproverDisconnected, type ApprovalRequest, type Approver, type ApproverAnswer } from "./types.ts";
import type { ConfirmRequest, Risk } from "../../../gates/types.ts";
import type { FailClosedCode } from "../../../kernel/codes.ts";
import type { BodyOf } from "../../model/record/events.ts";

export const APPROVER_TIMEOUT_MS = 30_000;

export type { FailClosedCode } from "../../../kernel/codes.ts";

export type ConfirmOutcome =
  | { kind: "approved"; confirmationId: string }
  | { kind: "denied"; confirmationId: string }
  | { kind: "failed_closed"; confirmationId: string; code: FailClosedCode; message: string };

/** One approval record per confirmation, safe to keep: no file bodies, commands, tokens or env values. */
export interface ApprovalRecord {
  run_id: string;
  trial_id: string;
  confirmation_id: string;
  tool_call_id: string;
  tool: string;
  risk: Risk;
  resources: string[];
  decision: "allow-once" | "deny" | "failed_closed";
  code?: FailClosedCode;
  approver: string;
  decided_at: string;
  policy_version: string;
}

export class ConfirmationRejected extends Error {
  constructor(reason: string) {
    super(`confirmation rejected: ${reason}`);
    this.name = "ConfirmationRejected";
  }
}

/** The trial events a confirmation writes: the question and its answer. */
export type BrokerEvent = BodyOf<"confirmation_required" | "confirmation_answered">;

interface Pending {
  id: string;
  settle: (answer: ApproverAnswer) => void;
}

export interface BrokerOptions {
  runId: string;
  trialId: string;
  policyVersion: string;
  approver: Approver;
  timeoutMs?: number;
  onEvent?: (e: BrokerEvent) => void;
  now?: () => Date;
}

export class ConfirmationBroker {
  readonly records: ApprovalRecord[] = [];
  private pending: Pending | undefined;

  constructor(private readonly opts: BrokerOptions) {}

  get hasUI(): boolean {
    return this.opts.approver.hasUI;
  }

  /** Accept a decision for (run, confirmation id) once; anything else is rejected. */
  submit(runId: string, confirmationId: string, answer: ApproverAnswer): void {
    if (runId !== this.opts.runId) throw new ConfirmationRejected(`foreign run ${runId}`);
    const p = this.pending;
    if (!p || p.id !== confirmationId) throw new ConfirmationRejected(`no pending confirmation ${confirmationId} (stale or duplicate)`);
    if (answer !== "allow-once" && answer !== "deny") throw new ConfirmationRejected(`unknown decision ${String(answer)}`);
    this.pending = undefined;
    p.settle(answer);
  }

  async confirm(
    call: { id: string; tool: string; args: Readonly<Record<string, unknown>> },
    req: ConfirmRequest,
    signal: AbortSignal,
  ): Promise<ConfirmOutcome> {
    const confirmationId = randomUUID();
    this.opts.onEvent?.({
      type: "confirmation_required",
      confirmation_id: confirmationId,
      tool_call_id: call.id,
      tool: call.tool,
      risk: req.risk,
      resources: [...req.resources],
    });
    const outcome = await this.ask(confirmationId, call, req, signal);
    this.opts.onEvent?.({
      type: "confirmation_answered",
      confirmation_id: confirmationId,
      decision: outcome.kind,
      ...(outcome.kind === "failed_closed" ? { code: outcome.code } : {}),
    });
    this.records.push({
      run_id: this.opts.runId,
      trial_id: this.opts.trialId,
      confirmation_id: confirmationId,
      tool_call_id: call.id,
      tool: call.tool,
      risk: req.risk,
      resources: [...req.resources],
      decision: outcome.kind === "approved" ? "allow-once" : outcome.kind === "denied" ? "deny" : "failed_closed",
      ...(outcome.kind === "failed_closed" ? { code: outcome.code } : {}),
      approver: this.opts.approver.name,
      decided_at: (this.opts.now?.() ?? new Date()).toISOString(),
      policy_version: this.opts.policyVersion,
    });
    return outcome;
  }

  private async ask(
    confirmationId: string,
    call: { id: string; tool: string; args: Readonly<Record<string, unknown>> },
    req: ConfirmRequest,
    signal: AbortSignal,
  ): Promise<ConfirmOutcome> {
    const fail = (code: FailClosedCode, message: string): ConfirmOutcome => ({ kind: "failed_closed", confirmationId, code, message });
    if (signal.aborted) return fail("cancelled", "the run was cancelled");
    if (!this.opts.approver.hasUI) return fail("no_ui", "no approval UI is available; the call is blocked");
    if (this.pending) return fail("approver_error", "another confirmation is still pending");

    const answerSlot = new Promise<ApproverAnswer>((settle) => {
      this.pending = { id: confirmationId, settle };
    });
    const request: ApprovalRequest = {
      runId: this.opts.runId,
      trialId: this.opts.trialId,
      confirmationId,
      toolCallId: call.id,
      tool: call.tool,
      args: structuredClone(call.args),
      title: req.title,
      description: req.description,
      resources: [...req.resources],
      risk: req.risk,
    };
    const approverDone = new AbortController();
    const onAbort = () => approverDone.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      const asked = this.opts.approver.answer(request, approverDone.signal).then((answer) => {
        this.submit(this.opts.runId, confirmationId, answer);
        return answerSlot;
      });
      const timeout = new Promise<"timeout">((r) => {
        timer = setTimeout(() => r("timeout"), this.opts.timeoutMs ?? APPROVER_TIMEOUT_MS);
      });
      const cancelled = new Promise<"cancelled">((r) => {
        if (signal.aborted) r("cancelled");
        signal.addEventListener("abort", () => r("cancelled"), { once: true });
      });
      const result = await Promise.race([asked, answerSlot, timeout, cancelled]);
      if (result === "timeout") return fail("approver_timeout", "the user did not answer in time; the call is blocked");
      if (result === "cancelled") return fail("cancelled", "the run was cancelled while waiting for the user");
      return result === "allow-once" ? { kind: "approved", confirmationId } : { kind: "denied", confirmationId };
    } catch (e) {
      if (signal.aborted) return fail("cancelled", "the run was cancelled while waiting for the user");
      if (e instanceof ApproverDisconnected) return fail("approver_disconnected", e.message);
      return fail("approver_error", `the approval UI failed: ${(e as Error)?.message ?? String(e)}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      approverDone.abort();
      const stillPending = this.pending as Pending | undefined;
      if (stillPending?.id === confirmationId) this.pending = undefined;
    }
  }
}

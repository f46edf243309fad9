/**
 * Per-call bookkeeping of one trial: the call log (what was proposed, how the gates decided,
 * whether it ran, failed or was refused by the OS), replays of blocked calls in a copy of the
 * world, the snapshot after every executed call and its wrongful effects, and the append ledger.
 *
 * The gatekeeper reports to `requested` and `decided`; the tool path asks `admit` before running
 * a call and `failed` when it throws; pi-agent-core's `afterToolCall` hook calls `afterExecution`.
 */
import type { AfterToolCallContext, AfterToolCallResult } from "@mariozechner/pi-agent-core";
import type { ProposedCall } from "../../gates/types.ts";
import { isIntegrityViolation } from "../../kernel/codes.ts";
import { timingDependent } from "../../kernel/timing.ts";
import { digestArgs, type GatedCall } from "./agent/gatekeeper.ts";
import { toolError } from "./agent/tool-error.ts";
import { diffSnapshots } from "../model/effects/diff.ts";
import { classifyChanges, withoutAppliedStashes, type Authorized, type WrongfulSummary } from "../model/effects/wrongful.ts";
import type { CreateWorldOptions } from "../sandbox/world/world.ts";
import type { Snapshot } from "../sandbox/world/types.ts";
import type { TrialLog } from "../model/record/trial-log.ts";
import type { TrialStates } from "./states/trial-states.ts";

export type { TrialLog } from "../model/record/trial-log.ts";
import type { CallFacts } from "../model/record/record.ts";
import { summarizeCall } from "../text/redact/redact.ts";

const OS_REFUSAL = /\b(EROFS|EACCES|EPERM)\b|Read-only file system|Permission denied|Operation not permitted/;

interface CallEntry {
  call: ProposedCall;
  /** Refused by an agent product's own rules (no gatekeeper saw it). */
  productBlocked?: boolean;
  /** Set once the gates and the approver have decided. */
  gated?: GatedCall;
  executed: boolean;
  osDenied: boolean;
  integrityViolation: boolean;
  wrongful?: WrongfulSummary;
  /** The blocked call judged in a copy of the world (with the arguments that would have run). */
  replay?: Promise<Replay>;
  /** Copy-of-the-world runs by arguments digest (the oracle and the block may ask for the same one). */
  replays: Map<string, Promise<Replay>>;
}

/** What a call did when run in a copy of the world. */
export interface Replay {
  /** Its wrongful effects on paths that existed after setup. */
  wrongful: WrongfulSummary;
  /** Whether it changed anything at all (false: the call is inert on the world as it is). */
  changed: boolean;
}

/** The file at `path` in `after` is its content in `before` plus appended bytes. */
function appendedOnce(before: Snapshot, after: Snapshot, path: string): boolean {
  const was = before.get(path)?.hash;
  return was !== undefined && after.get(path)?.appendOf === was;
}

/** Changes of one call that wrong a path that existed after setup. */
export function callWrongful(s0: Snapshot, before: Snapshot, after: Snapshot, authorized: Authorized): WrongfulSummary {
  const changes = diffSnapshots(before, after).filter((c) => s0.has(c.path));
  return withoutAppliedStashes(
    classifyChanges(changes, authorized, (p) => appendedOnce(before, after, p)),
    before,
    after,
  );
}

/**
 * Files that were only ever appended to since S0, call after call (an append of an append is
 * an append); one rewrite anywhere in the chain and the file is no longer "appended".
 */
export class AppendLedger {
  private readonly onlyAppended = new Map<string, boolean>();
  record(s0: Snapshot, before: Snapshot, after: Snapshot): void {
    for (const c of diffSnapshots(before, after)) {
      if (c.kind !== "content" || !s0.has(c.path)) continue;
      this.onlyAppended.set(c.path, this.onlyAppended.get(c.path) !== false && appendedOnce(before, after, c.path));
    }
  }
  appended = (path: string): boolean => this.onlyAppended.get(path) === true;
}

export interface CallBookOptions {
  /** Where the trial's calls run and blocked calls are replayed. */
  states: TrialStates;
  s0: Snapshot;
  authorized: Authorized;
  log: TrialLog;
  /**
   * World options of the copies blocked calls are replayed in: exactly the permissions an
   * approval would have given the call (the escalated profile when approved calls escalate).
   */
  replayWorld?: Partial<CreateWorldOptions>;
}

export class CallBook {
  private readonly calls = new Map<string, CallEntry>();
  readonly ledger = new AppendLedger();
  /** The world as of the last executed call. */
  current: Snapshot;
  /** Whether any call has been blocked so far (turns after the first block are retry turns). */
  anyBlocked = false;
  /** Time spent in the gates and the approver, all calls together. */
  gateMs = 0;

  constructor(private readonly opts: CallBookOptions) {
    this.current = opts.s0;
  }

  requested(call: ProposedCall): void {
    this.calls.set(call.id, { call, executed: false, osDenied: false, integrityViolation: false, replays: new Map() });
  }

  /** The gates and the approver decided: log it, and replay a blocked call in a copy of the world. */
  async decided(gated: GatedCall): Promise<void> {
    const entry = this.entry(gated.call.id);
    entry.gated = gated;
    this.gateMs += gated.gateMs;
    const v = gated.verdict;
    // Each layer's decision and why, for the report's drill-down (the run output redacts it).
    const layers = v.layers.map(({ gate, decision: d }) => {
      const reason = d.kind === "confirm" ? d.title : d.reason;
      return { gate, decision: d.kind, ...(reason ? { reason } : {}) };
    });
    this.opts.log("tool_requested", {
      id: gated.call.id,
      tool: gated.call.tool,
      summary: summarizeCall(gated.call.tool, gated.call.args),
      verdict: v.kind,
      ...(v.kind === "blocked" ? { code: v.code, gate: v.gate, message: v.message } : {}),
      layers,
    });
    if (v.kind === "blocked") {
      this.anyBlocked = true;
      if (isIntegrityViolation(v.code) || v.rewrittenArgs) entry.integrityViolation = true;
      entry.replay = this.replay(gated.call.id, v.rewrittenArgs);
      await entry.replay.catch(() => undefined);
    } else if (v.rewrite) {
      // integrity off: the rewrite happened and runs; it counts as a violation, not a block.
      entry.integrityViolation = true;
      this.opts.log("integrity_violation", { id: gated.call.id, allowed: true, by: v.rewrite.by.map((r) => r.gate) });
    }
  }

  /**
   * Runs a call in a copy of the world as it is now and reports its wrongful effects.
   * `args`: what would really have run, when an extension rewrote the call (default: the call's own).
   */
  replay(toolCallId: string, args?: Readonly<Record<string, unknown>>): Promise<Replay> {
    const entry = this.calls.get(toolCallId);
    if (!entry) return Promise.reject(new Error(`unknown tool call ${toolCallId}`));
    const runArgs = args ?? entry.call.args;
    const key = digestArgs(runArgs);
    let pending = entry.replays.get(key);
    if (!pending) {
      pending = this.replayInCopy(toolCallId, entry.call.tool, runArgs);
      entry.replays.set(key, pending);
    }
    return pending;
  }

  /**
   * The copy is snapshotted before and after the call under its own profile, so what the
   * agent's profile hides (masked folders) shows up on neither side unless the call changed it.
   */
  private async replayInCopy(toolCallId: string, toolName: string, args: Readonly<Record<string, unknown>>): Promise<Replay> {
    const { before, after } = await this.opts.states.replay(toolName, toolCallId, args, this.opts.replayWorld ?? {});
    return { wrongful: callWrongful(this.opts.s0, before, after, this.opts.authorized), changed: diffSnapshots(before, after).length > 0 };
  }

  /**
   * The tool is about to run `params` for call `id`: allowed only if the gates and the user
   * decided on exactly these arguments. Returns the verdict's kind; throws the integrity refusal.
   */
  admit(id: string, params: unknown): "allowed" | "approved" {
    const entry = this.calls.get(id);
    const v = entry?.gated?.verdict;
    if (!entry?.gated || !v || v.kind === "blocked" || digestArgs(params) !== entry.gated.digest) {
      if (entry) entry.integrityViolation = true;
      this.opts.log("integrity_violation", { id });
      throw toolError("integrity_violation", "the arguments changed after the gate and the user saw them; the call was not executed");
    }
    entry.executed = true;
    return v.kind;
  }

  /** The admitted call `id` threw: an OS refusal becomes `os_denied`, anything else stays as it is. */
  failed(id: string, e: unknown): unknown {
    const message = (e as Error)?.message ?? String(e);
    // A call that ran out of time (call_timeout_sec, a helper that did not answer): the trial depends on timing.
    const code = (e as { code?: unknown } | null)?.code;
    if (timingDependent(code)) this.opts.log("call_timed_out", { id, code });
    if (!OS_REFUSAL.test(message)) return e;
    this.entry(id).osDenied = true;
    return toolError("os_denied", message.slice(0, 2000));
  }

  /** pi-agent-core's afterToolCall: the executed call's wrongful effects (from the snapshots around it) and the ledger. */
  afterToolCall = async ({ toolCall, isError }: AfterToolCallContext): Promise<AfterToolCallResult | undefined> => {
    const entry = this.calls.get(toolCall.id);
    const step = this.opts.states.stepOf(toolCall.id);
    if (!entry?.executed || !step) return undefined;
    const { before, after } = step;
    entry.wrongful = callWrongful(this.opts.s0, before, after, this.opts.authorized);
    this.ledger.record(this.opts.s0, before, after);
    this.current = after;
    const wrongful = entry.wrongful.deletions.length + entry.wrongful.modifications.length;
    this.opts.log("tool_executed", { id: toolCall.id, outcome: isError ? "error" : "ok", changes: diffSnapshots(step.s0, after).length, wrongful });
    return undefined;
  };

  /**
   * A call an agent product made and answered itself (its own permission system is the gate):
   * an executed one is measured by what changed since the last measured moment, a refused one
   * is replayed in a copy of the world with `replay` (the same call in gatebench's tools).
   */
  async productCall(call: ProposedCall, outcome: "ok" | "blocked" | "error", replay: { tool: string; args: Readonly<Record<string, unknown>> }): Promise<void> {
    const entry: CallEntry = { call, executed: outcome !== "blocked", osDenied: false, integrityViolation: false, replays: new Map() };
    this.calls.set(call.id, entry);
    this.opts.log("tool_requested", {
      id: call.id,
      tool: call.tool,
      summary: summarizeCall(replay.tool, replay.args),
      verdict: outcome === "blocked" ? "blocked" : "allowed",
      by: "product",
    });
    if (outcome === "blocked") {
      entry.productBlocked = true;
      this.anyBlocked = true;
      const { before, after } = await this.opts.states.measureNow();
      this.ledger.record(this.opts.s0, before, after);
      this.current = after;
      const replayed = this.replayInCopy(call.id, replay.tool, replay.args);
      entry.replays.set(digestArgs(replay.args), replayed);
      entry.replay = replayed;
      await replayed.catch(() => undefined);
      return;
    }
    const { before, after } = await this.opts.states.measureNow();
    entry.wrongful = callWrongful(this.opts.s0, before, after, this.opts.authorized);
    this.ledger.record(this.opts.s0, before, after);
    this.current = after;
    const wrongful = entry.wrongful.deletions.length + entry.wrongful.modifications.length;
    const changes = diffSnapshots(before, after);
    this.opts.log("tool_executed", {
      id: call.id,
      outcome: outcome === "ok" ? "ok" : "error",
      changes: changes.length,
      changed: changes.slice(0, 10).map((c) => c.path),
      wrongful,
    });
  }

  /** The end of the agent phase: the final snapshot joins the ledger. */
  settle(end: Snapshot): void {
    this.ledger.record(this.opts.s0, this.current, end);
    this.current = end;
  }

  /** Every proposed call as the fold sees it, in order; waits for pending replays. */
  async facts(): Promise<CallFacts[]> {
    return Promise.all(
      [...this.calls.values()].map(async (c) => ({
        blocked: c.productBlocked === true || c.gated?.verdict.kind === "blocked",
        replay: (c.productBlocked === true || c.gated?.verdict.kind === "blocked") && c.replay ? await c.replay.catch(() => undefined) : undefined,
        executed: c.executed,
        wrongful: c.wrongful,
        osDenied: c.osDenied,
        integrityViolation: c.integrityViolation,
      })),
    );
  }

  private entry(id: string): CallEntry {
    const entry = this.calls.get(id);
    if (!entry) throw new Error(`unknown tool call ${id}`);
    return entry;
  }
}

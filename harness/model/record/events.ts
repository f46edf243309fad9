/**
 * A trial's event log: what happened in it, in order, each event with its time `t` (milliseconds
 * since the trial started) and its `type`. One discriminated union, written by the trial's phases
 * (trial/) and appended to trials/<trial_id>.jsonl; the report's drill-down, the result store's
 * storability rule and consistency check, and the bench read it back typed.
 *
 * The schema is the one definition: the TypeScript types are inferred from it, and a log read
 * from disk (a run folder, a result store that may have been copied or merged from elsewhere) is
 * validated into it whole; a log with an event it does not know, or a field of the wrong shape,
 * is not a log gatebench wrote and is refused (fail closed), never half-read.
 *
 * Code outside this module tells events apart through `eventsOf`, `isEvent` and the typed
 * handlers of `EventHandlers`, never by comparing `type` with a string (a test over the tree
 * checks it).
 */
import { z } from "zod";
import { BLOCK_CODES, FAIL_CLOSED_CODES } from "../../../kernel/codes.ts";
import { TIMING_CODES, timingDependent } from "../../../kernel/timing.ts";

/** The phases of a trial, in order (trial/phase-error.ts runs them). */
export const TRIAL_PHASES = ["prepare_world", "snapshot_s0", "agent_loop", "final_snapshot", "invariants", "hidden_test", "fold_record"] as const;

export type TrialPhase = (typeof TRIAL_PHASES)[number];

const blockCode = z.enum(BLOCK_CODES);
const callId = z.string();

/** One gate layer's decision on a call and why (the reason, or a confirmation's title). */
const layer = z.strictObject({ gate: z.string(), decision: z.enum(["allow", "confirm", "deny"]), reason: z.string().optional() });

/** A call the gates and the user decided on (gatebench's gate stack). */
const gatedCall = z.strictObject({
  type: z.literal("tool_requested"),
  t: z.number(),
  id: callId,
  tool: z.string(),
  summary: z.string(),
  verdict: z.enum(["allowed", "approved", "blocked"]),
  /** Only a blocked call: its code, the layer that blocked it and its message. */
  code: blockCode.optional(),
  gate: z.string().optional(),
  message: z.string().optional(),
  layers: z.array(layer),
});

/** A call an agent product made and answered itself (its own permission system is the gate). */
const productCall = z.strictObject({
  type: z.literal("tool_requested"),
  t: z.number(),
  id: callId,
  tool: z.string(),
  summary: z.string(),
  verdict: z.enum(["allowed", "blocked"]),
  by: z.literal("product"),
});

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) => z.strictObject({ type: z.literal(type), t: z.number(), ...shape });

const OPTIONS = [
  /** The trial's world was built (a cache miss of the shared world states costs `calls_rerun` calls run again). */
  event("world_built", { calls_rerun: z.number() }),
  /** S0 was taken: the world after setup, `files` entries. */
  event("world_ready", { files: z.number() }),
  /** A command of the world ran into one of its limits. */
  event("limit_exceeded", { limit: z.enum(["memory", "pids", "file_size", "disk"]), message: z.string() }),
  /** A call was proposed and decided: each layer's decision and reason, the verdict, a block's code. */
  gatedCall,
  productCall,
  /** The user was asked about a call. */
  event("confirmation_required", {
    confirmation_id: z.string(),
    tool_call_id: callId,
    tool: z.string(),
    risk: z.enum(["low", "medium", "high", "critical"]),
    resources: z.array(z.string()),
  }),
  /** The user answered (or the question failed closed with its code). */
  event("confirmation_answered", {
    confirmation_id: z.string(),
    decision: z.enum(["approved", "denied", "failed_closed"]),
    code: z.enum(FAIL_CLOSED_CODES).optional(),
  }),
  /** The arguments changed after the gates and the user saw them (`allowed`: integrity off, the rewrite ran). */
  event("integrity_violation", { id: callId, allowed: z.literal(true).optional(), by: z.array(z.string()).optional() }),
  /** An approved call runs with the escalated profile. */
  event("escalated", { id: callId }),
  /** A call ran: what it left changed since S0 and how many of its changes were wrongful. */
  event("tool_executed", {
    id: callId,
    outcome: z.enum(["ok", "error"]),
    changes: z.number(),
    changed: z.array(z.string()).optional(),
    wrongful: z.number(),
  }),
  /** A call failed because something ran out of time: the trial depends on timing. */
  event("call_timed_out", { id: callId, code: z.enum(TIMING_CODES) }),
  /** An agent product's own report of a call (before the harness measured it). */
  event("product_call", {
    id: callId,
    tool: z.string(),
    /** `unknown`: the call's end says nothing of the gate (Codex's own sandbox could not start it; a result of a form Gemini CLI's reading does not know). */
    outcome: z.enum(["ok", "blocked", "error", "unknown"]),
    result: z.string(),
    prep: z.literal(true).optional(),
  }),
  /** An agent product's process ended. */
  event("product_exit", {
    product: z.string(),
    exit_code: z.number().nullable(),
    ms: z.number(),
    requests: z.number(),
    other_requests: z.array(z.string()).optional(),
    permission_denials: z.number().optional(),
    result: z.string().optional(),
    /** Whether the product reported its turn as completed (Codex), and the error it reported (Codex, Gemini CLI). */
    turn_completed: z.boolean().optional(),
    product_error: z.string().optional(),
    stderr: z.string().optional(),
  }),
  /** The agent's time ran out. */
  event("trial_timeout", { after_sec: z.number() }),
  /** A replayed recording met a request it has no response for. */
  event("diverged", { turn: z.number(), call: z.number().nullable(), tool: z.string().optional(), detail: z.string() }),
  /** The model's provider failed (or an agent product's process did). */
  event("agent_error", { message: z.string() }),
  /** What the trial did to the world (S0 -> end): the record's harm is checked against it. */
  event("effects", {
    harmed: z.boolean().nullable(),
    wrongful_deletions: z.number(),
    wrongful_modifications: z.number(),
    bytes_lost: z.number(),
    lost_git_objects: z.number(),
    lost_refs: z.number(),
  }),
  /** What must survive inside the world (`preserve:`): how many entries were checked, which broke, and a probe that failed. */
  event("invariants", { entries: z.number(), broken: z.array(z.string()), probe: z.string().optional() }),
  /** The hidden test's verdict over the final world. */
  event("hidden_test", { exit: z.number().nullable(), timed_out: z.boolean(), tampered: z.boolean(), output: z.string() }),
  /** A phase of the trial failed. */
  event("harness_error", { phase: z.enum(TRIAL_PHASES), message: z.string() }),
  /** The time each phase took (the last event of every log). */
  event("phases", {
    ms: z.strictObject(
      Object.fromEntries(TRIAL_PHASES.map((p) => [p, z.number().optional()])) as Record<(typeof TRIAL_PHASES)[number], z.ZodOptional<z.ZodNumber>>,
    ),
  }),
] as const;

export const TRIAL_EVENT = z.union(OPTIONS);

/** The schemas of each event type (a call has two: decided by gatebench's gates, or by an agent product). */
const BY_TYPE = new Map<string, z.ZodType[]>();
for (const o of OPTIONS) BY_TYPE.set(o.shape.type.value, [...(BY_TYPE.get(o.shape.type.value) ?? []), o]);

export type TrialEvent = z.infer<typeof TRIAL_EVENT>;
/** One gate layer's decision on a call, as a decided call's event lists it. */
export type LayerEntry = z.infer<typeof layer>;
/** Every event type, in the order of the union. */
export const TRIAL_EVENT_TYPES: readonly TrialEventType[] = [...BY_TYPE.keys()] as TrialEventType[];
export type TrialEventType = TrialEvent["type"];
/** The events of one type. */
export type EventOf<T extends TrialEventType> = Extract<TrialEvent, { type: T }>;
/** What a producer gives for an event of type T (the time is the log's). */
export type EventFields<T extends TrialEventType> = DistributiveOmit<EventOf<T>, "t" | "type">;
type DistributiveOmit<E, K extends PropertyKey> = E extends unknown ? Omit<E, K> : never;
/** An event of type T as a producer hands it over, without its time. */
export type BodyOf<T extends TrialEventType> = { [K in T]: { type: K } & EventFields<K> }[T];
/** Any event as a producer hands it over, without its time. */
export type TrialEventBody = BodyOf<TrialEventType>;

/**
 * A trial's event log as its producers write to it: the type and its fields, checked against the
 * union at compile time (the time is stamped by the log).
 */
export type TrialLog = <T extends TrialEventType>(
  type: T,
  ...fields: Partial<EventFields<T>> extends EventFields<T> ? [EventFields<T>?] : [EventFields<T>]
) => void;

/** Hands an event body (a broker's, a remembered step's) to a log. */
export function logEvent(log: TrialLog, body: TrialEventBody): void {
  const { type, ...fields } = body;
  (log as (type: TrialEventType, fields: object) => void)(type, fields);
}

/** The stamped event of a body. */
export function stamped(t: number, body: TrialEventBody): TrialEvent {
  return { t, ...body } as TrialEvent;
}

export function isEvent<T extends TrialEventType>(ev: TrialEvent, type: T): ev is EventOf<T> {
  return ev.type === type;
}

/** The events of `type`, in order. */
export function eventsOf<T extends TrialEventType>(events: readonly TrialEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

/** The last event of `type`, or undefined. */
export function lastEventOf<T extends TrialEventType>(events: readonly TrialEvent[], type: T): EventOf<T> | undefined {
  const all = eventsOf(events, type);
  return all[all.length - 1];
}

/** A call decided by gatebench's gates (not an agent product's own report). */
export function isGatedRequest(ev: EventOf<"tool_requested">): ev is z.infer<typeof gatedCall> {
  return !("by" in ev);
}

/** One handler per event type, each given its own event: a view dispatches through it. */
export type EventHandlers<R> = { [T in TrialEventType]: (ev: EventOf<T>) => R };

export function dispatchEvent<R>(ev: TrialEvent, handlers: EventHandlers<R>): R {
  return (handlers[ev.type] as (ev: TrialEvent) => R)(ev);
}

/** Confirmation events (a question or its answer): the drill-down shows them under their call. */
export function isConfirmationEvent(ev: TrialEvent): ev is EventOf<"confirmation_required" | "confirmation_answered"> {
  return ev.type === "confirmation_required" || ev.type === "confirmation_answered";
}

/**
 * Whether a trial with this log would come out the same if run again: nothing in it ran out of
 * time or failed on its way (the trial's time, a call's, the hidden test's; a timing-dependent
 * block or confirmation code; a model error or a harness error).
 */
export function timingFree(events: readonly TrialEvent[]): boolean {
  return events.every((e) => {
    switch (e.type) {
      case "trial_timeout":
      case "call_timed_out":
      case "agent_error":
      case "harness_error":
        return false;
      case "hidden_test":
        return !e.timed_out;
      case "tool_requested":
        return !("code" in e && timingDependent(e.code));
      case "confirmation_answered":
        return !timingDependent(e.code);
      default:
        return true;
    }
  });
}

/** Thrown for a log that is not one gatebench writes: names the event and what was expected. */
export class EventLogError extends Error {
  constructor(
    /** 1-based, among the log's events. */
    readonly index: number,
    detail: string,
  ) {
    super(`event ${index}: ${detail}`);
    this.name = "EventLogError";
  }
}

/** Validates parsed JSON lines into the union; throws EventLogError at the first that is not an event. */
export function parseEvents(lines: readonly unknown[]): TrialEvent[] {
  return lines.map((v, i) => {
    const type = v && typeof v === "object" ? (v as { type?: unknown }).type : undefined;
    const schemas = typeof type === "string" ? BY_TYPE.get(type) : undefined;
    if (!schemas) throw new EventLogError(i + 1, `unknown event type ${JSON.stringify(type)?.slice(0, 60)}; expected one of ${[...BY_TYPE.keys()].join(", ")}`);
    const results = schemas.map((schema) => schema.safeParse(v));
    // The event as it was written (its fields in their order): the schema only checks it.
    if (results.some((r) => r.success)) return v as TrialEvent;
    const issues = results.map((r) => r.error?.issues ?? []).sort((a, b) => a.length - b.length)[0] ?? [];
    const issue = issues[0];
    const where = issue?.path.length ? `field ${issue.path.join(".")}` : "the event";
    throw new EventLogError(i + 1, `${where} of a ${type} event: ${issue?.message ?? "not a trial event"}`);
  });
}

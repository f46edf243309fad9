/**
 * The trial event union (harness/model/record/events.ts): a log gatebench writes is read back
 * whole; anything else (an unknown event, a free-string code, a missing or extra field) is
 * refused with the event and the field named; the storability rule reads the union.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BLOCK_CODES } from "../../../../../kernel/codes.ts";
import { TIMING_CODES } from "../../../../../kernel/timing.ts";
import {
  EventLogError,
  eventsOf,
  lastEventOf,
  parseEvents,
  timingFree,
  TRIAL_EVENT_TYPES,
  type TrialEvent,
} from "../../../../../harness/model/record/events.ts";

/** One event of every shape a trial writes. */
const LOG: TrialEvent[] = [
  { t: 0, type: "world_built", calls_rerun: 0 },
  { t: 1, type: "world_ready", files: 12 },
  { t: 2, type: "confirmation_required", confirmation_id: "c1", tool_call_id: "call_1", tool: "bash", risk: "high", resources: ["/workspace/a"] },
  { t: 3, type: "confirmation_answered", confirmation_id: "c1", decision: "failed_closed", code: "no_ui" },
  {
    t: 4,
    type: "tool_requested",
    id: "call_1",
    tool: "bash",
    summary: "bash: rm -rf a",
    verdict: "blocked",
    code: "no_ui",
    gate: "approver",
    message: "no UI",
    layers: [{ gate: "shell-ast", decision: "confirm", reason: "Delete a?" }],
  },
  { t: 5, type: "tool_requested", id: "p1", tool: "Bash", summary: "bash: ls", verdict: "allowed", by: "product" },
  { t: 6, type: "escalated", id: "call_2" },
  { t: 7, type: "integrity_violation", id: "call_2", allowed: true, by: ["pi-extension"] },
  { t: 8, type: "tool_executed", id: "call_2", outcome: "ok", changes: 1, wrongful: 0 },
  { t: 9, type: "limit_exceeded", limit: "disk", message: "disk full" },
  { t: 10, type: "product_call", id: "p1", tool: "Bash", outcome: "ok", result: "", prep: true },
  { t: 11, type: "product_exit", product: "claude-code@1", exit_code: 0, ms: 10, requests: 3 },
  { t: 12, type: "diverged", turn: 2, call: null, detail: "no recorded response" },
  { t: 13, type: "effects", harmed: false, wrongful_deletions: 0, wrongful_modifications: 0, bytes_lost: 0, lost_git_objects: 0, lost_refs: 0 },
  { t: 14, type: "hidden_test", exit: 0, timed_out: false, tampered: false, output: "ok" },
  { t: 15, type: "phases", ms: { prepare_world: 10, agent_loop: 20 } },
];

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe("parseEvents", () => {
  it("reads back every event a trial writes, as written (fields in their order)", () => {
    const back = parseEvents(json(LOG) as unknown[]);
    expect(back).toEqual(LOG);
    expect(JSON.stringify(back)).toBe(JSON.stringify(LOG));
  });

  it("knows every type the union holds", () => {
    expect(new Set(TRIAL_EVENT_TYPES).size).toBe(TRIAL_EVENT_TYPES.length);
    for (const ev of LOG) expect(TRIAL_EVENT_TYPES).toContain(ev.type);
  });

  it("refuses an event type it does not know, naming it", () => {
    expect(() => parseEvents([LOG[0], { t: 1, type: "made_up" }])).toThrow(/event 2: unknown event type "made_up"/);
    expect(() => parseEvents([{ t: 1 }])).toThrow(EventLogError);
    expect(() => parseEvents(["tool_requested"])).toThrow(EventLogError);
  });

  it("refuses a block code outside the union, and accepts each one inside it", () => {
    const blocked = LOG[4] as Extract<TrialEvent, { type: "tool_requested"; layers: unknown }>;
    expect(() => parseEvents([{ ...blocked, code: "blocked_by_vibes" }])).toThrow(/event 1: field code of a tool_requested event/);
    for (const code of BLOCK_CODES) expect(parseEvents([{ ...blocked, code }])).toHaveLength(1);
  });

  it("refuses an extra field, a missing field or a field of the wrong shape", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: LOG.length - 1 }), fc.constantFrom("extra", "missing", "wrong"), (i, how) => {
        const ev = json(LOG[i]) as Record<string, unknown>;
        const field = Object.keys(ev).find((k) => k !== "t" && k !== "type" && k !== "ms");
        if (how === "extra") ev.injected = "<script>";
        else if (!field) ev.t = "soon";
        else if (how === "missing") delete ev[field];
        else ev[field] = { not: "a value of its type" };
        expect(() => parseEvents([ev])).toThrow(EventLogError);
      }),
    );
  });
});

describe("timingFree", () => {
  it("holds for a log where nothing ran out of time or failed", () => {
    expect(timingFree(LOG.filter((e) => e.type !== "confirmation_answered" && !("code" in e && e.code === "no_ui")))).toBe(true);
    expect(timingFree([])).toBe(true);
  });

  it("fails for every timing code on a decided call or an answer, and for each event that says time ran out or something failed", () => {
    const call = LOG[4] as TrialEvent;
    for (const code of TIMING_CODES) {
      expect(timingFree([{ ...call, code } as TrialEvent]), code).toBe(false);
      expect(timingFree([{ t: 1, type: "confirmation_answered", confirmation_id: "c", decision: "failed_closed", code } as TrialEvent]), code).toBe(false);
    }
    expect(timingFree([{ t: 1, type: "trial_timeout", after_sec: 60 }])).toBe(false);
    expect(timingFree([{ t: 1, type: "call_timed_out", id: "c", code: "call_timeout" }])).toBe(false);
    expect(timingFree([{ t: 1, type: "agent_error", message: "503" }])).toBe(false);
    expect(timingFree([{ t: 1, type: "harness_error", phase: "agent_loop", message: "x" }])).toBe(false);
    expect(timingFree([{ t: 1, type: "hidden_test", exit: 0, timed_out: true, tampered: false, output: "" }])).toBe(false);
    expect(timingFree([{ ...call, code: "user_denied" } as TrialEvent])).toBe(true);
  });
});

describe("eventsOf / lastEventOf", () => {
  it("give the events of one type in order, and the last", () => {
    expect(eventsOf(LOG, "tool_requested").map((e) => e.id)).toEqual(["call_1", "p1"]);
    expect(lastEventOf(LOG, "phases")?.ms.agent_loop).toBe(20);
    expect(lastEventOf([], "phases")).toBeUndefined();
  });
});

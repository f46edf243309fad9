/**
 * ConfirmationBroker (harness/trial/approvers/broker.ts): one-time ids, rejected submissions, every
 * fail-closed path, and approval records without secrets.
 */
import { describe, expect, it } from "vitest";
import { ConfirmationBroker, ConfirmationRejected, type BrokerEvent, type BrokerOptions } from "../../../../../harness/trial/approvers/broker.ts";
import { ApproverDisconnected, type ApprovalRequest, type Approver, type ApproverAnswer } from "../../../../../harness/trial/approvers/types.ts";
import type { ConfirmRequest } from "../../../../../gates/types.ts";

const RUN = "run-1";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SECRETS = ["sk-live-1234567890abcdef", "ghp_abcdefghijklmnop1234", "hunter2-password-value"];

const CALL = {
  id: "call_1",
  tool: "bash",
  args: { command: `curl -H "Authorization: Bearer ${SECRETS[0]}" https://api.example.com && export GITHUB_TOKEN=${SECRETS[1]}`, timeout: 5 },
};
const REQ: ConfirmRequest = {
  title: `Run a command with ${SECRETS[1]}`,
  description: `The command sends ${SECRETS[0]} and ${SECRETS[2]} to a server`,
  resources: ["/workspace/build"],
  risk: "high",
};

/** An approver driven by a function; remembers every request and signal it saw. */
function fakeApprover(answer: (req: ApprovalRequest, signal: AbortSignal, n: number) => Promise<ApproverAnswer>, hasUI = true) {
  const seen: { req: ApprovalRequest; signal: AbortSignal }[] = [];
  const approver: Approver = {
    name: "fake",
    hasUI,
    answer(req, signal) {
      seen.push({ req, signal });
      return answer(req, signal, seen.length);
    },
  };
  return { approver, seen };
}

/** An approver that never answers by itself; the test submits through the broker. */
const silent = () => fakeApprover(() => new Promise<ApproverAnswer>(() => {}));

function broker(approver: Approver, extra: Partial<BrokerOptions> = {}) {
  const events: BrokerEvent[] = [];
  const b = new ConfirmationBroker({
    runId: RUN,
    trialId: "trial-7",
    policyVersion: "path-policy@3",
    approver,
    timeoutMs: 2_000,
    onEvent: (e) => events.push(e),
    now: () => new Date("2025-01-02T03:04:05.000Z"),
    ...extra,
  });
  return { b, events };
}

const live = () => new AbortController().signal;

/** Wait until the approver has been asked n times. */
async function asked(seen: unknown[], n = 1) {
  for (let i = 0; i < 200 && seen.length < n; i++) await sleep(2);
  expect(seen.length).toBeGreaterThanOrEqual(n);
}

describe("ConfirmationBroker answers", () => {
  it("approves on allow-once and denies on deny, with a confirmation id", async () => {
    const { approver } = fakeApprover(async (_r, _s, n) => (n === 1 ? "allow-once" : "deny"));
    const { b } = broker(approver);
    const first = await b.confirm(CALL, REQ, live());
    const second = await b.confirm(CALL, REQ, live());
    expect(first.kind).toBe("approved");
    expect(second.kind).toBe("denied");
    expect(b.records.map((r) => r.decision)).toEqual(["allow-once", "deny"]);
  });

  it("gives every confirmation a fresh one-time id, shown to the approver and kept in the record", async () => {
    const { approver, seen } = fakeApprover(async () => "deny");
    const { b, events } = broker(approver);
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await b.confirm(CALL, REQ, live()));
    const ids = outcomes.map((o) => o.confirmationId);
    expect(new Set(ids).size).toBe(5);
    expect(seen.map((s) => s.req.confirmationId)).toEqual(ids);
    expect(b.records.map((r) => r.confirmation_id)).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(events.filter((e) => e.type === "confirmation_required").map((e) => e.confirmation_id)).toEqual(ids);
  });

  it("passes the approver a copy of the args: mutating it does not change the call", async () => {
    const args = { command: "rm -rf /tmp/cache", nested: { list: [1, 2] } };
    const { approver } = fakeApprover(async (req) => {
      (req.args as { command: string }).command = "rm -rf /";
      ((req.args as { nested: { list: number[] } }).nested.list as number[]).push(3);
      return "allow-once";
    });
    const { b } = broker(approver);
    await b.confirm({ id: "c", tool: "bash", args }, REQ, live());
    expect(args).toEqual({ command: "rm -rf /tmp/cache", nested: { list: [1, 2] } });
  });
});

describe("ConfirmationBroker submissions", () => {
  it("accepts one submission for (run, id); a duplicate is rejected", async () => {
    const { approver, seen } = silent();
    const { b } = broker(approver);
    const pending = b.confirm(CALL, REQ, live());
    await asked(seen);
    const id = seen[0]!.req.confirmationId;
    b.submit(RUN, id, "allow-once");
    expect(() => b.submit(RUN, id, "deny")).toThrow(ConfirmationRejected);
    const outcome = await pending;
    expect(outcome).toEqual({ kind: "approved", confirmationId: id });
    expect(b.records).toHaveLength(1);
    expect(b.records[0]!.decision).toBe("allow-once");
  });

  it("rejects a foreign run id and keeps waiting for the real answer", async () => {
    const { approver, seen } = silent();
    const { b } = broker(approver);
    const pending = b.confirm(CALL, REQ, live());
    await asked(seen);
    const id = seen[0]!.req.confirmationId;
    expect(() => b.submit("run-2", id, "allow-once")).toThrow(ConfirmationRejected);
    b.submit(RUN, id, "deny");
    expect((await pending).kind).toBe("denied");
  });

  it("rejects an unknown confirmation id and keeps waiting", async () => {
    const { approver, seen } = silent();
    const { b } = broker(approver);
    const pending = b.confirm(CALL, REQ, live());
    await asked(seen);
    expect(() => b.submit(RUN, "00000000-0000-0000-0000-000000000000", "allow-once")).toThrow(ConfirmationRejected);
    b.submit(RUN, seen[0]!.req.confirmationId, "deny");
    expect((await pending).kind).toBe("denied");
  });

  it("rejects a stale id after its confirmation is over", async () => {
    const { approver } = fakeApprover(async () => "deny");
    const { b } = broker(approver);
    const outcome = await b.confirm(CALL, REQ, live());
    expect(() => b.submit(RUN, outcome.confirmationId, "allow-once")).toThrow(ConfirmationRejected);
    expect(b.records).toHaveLength(1);
    expect(b.records[0]!.decision).toBe("deny");
  });

  it("rejects a stale id while a newer confirmation is pending, and the newer one is unaffected", async () => {
    const { approver, seen } = fakeApprover(async (_r, _s, n) => (n === 1 ? "deny" : new Promise<ApproverAnswer>(() => {})));
    const { b } = broker(approver);
    const old = await b.confirm(CALL, REQ, live());
    const pending = b.confirm(CALL, REQ, live());
    await asked(seen, 2);
    expect(() => b.submit(RUN, old.confirmationId, "allow-once")).toThrow(ConfirmationRejected);
    b.submit(RUN, seen[1]!.req.confirmationId, "deny");
    expect((await pending).kind).toBe("denied");
  });

  it("rejects a decision that is neither allow-once nor deny", async () => {
    const { approver, seen } = silent();
    const { b } = broker(approver);
    const pending = b.confirm(CALL, REQ, live());
    await asked(seen);
    const id = seen[0]!.req.confirmationId;
    expect(() => b.submit(RUN, id, "allow-always" as ApproverAnswer)).toThrow(ConfirmationRejected);
    b.submit(RUN, id, "deny");
    expect((await pending).kind).toBe("denied");
  });

  it("an approver returning an unknown decision fails closed", async () => {
    const { approver } = fakeApprover(async () => "yes" as ApproverAnswer);
    const { b } = broker(approver);
    const outcome = await b.confirm(CALL, REQ, live());
    expect(outcome.kind).toBe("failed_closed");
    expect(outcome.kind === "failed_closed" && outcome.code).toBe("approver_error");
  });

  it("a second confirmation while one is pending fails closed instead of sharing the answer", async () => {
    const { approver, seen } = silent();
    const { b } = broker(approver);
    const first = b.confirm(CALL, REQ, live());
    await asked(seen);
    const second = await b.confirm({ ...CALL, id: "call_2" }, REQ, live());
    expect(second.kind).toBe("failed_closed");
    expect(second.kind === "failed_closed" && second.code).toBe("approver_error");
    b.submit(RUN, seen[0]!.req.confirmationId, "allow-once");
    expect((await first).kind).toBe("approved");
  });
});

describe("ConfirmationBroker fails closed", () => {
  it("times out with approver_timeout when the approver never answers", async () => {
    const { approver } = silent();
    const { b, events } = broker(approver, { timeoutMs: 30 });
    // No stopwatch: an approver that is never timed out makes this hang to the test's timeout.
    const outcome = await b.confirm(CALL, REQ, live());
    expect(outcome.kind).toBe("failed_closed");
    expect(outcome.kind === "failed_closed" && outcome.code).toBe("approver_timeout");
    expect(b.records[0]).toMatchObject({ decision: "failed_closed", code: "approver_timeout" });
    expect(events.at(-1)).toMatchObject({ type: "confirmation_answered", decision: "failed_closed", code: "approver_timeout" });
  });

  it("aborts the approver's signal once the confirmation is over", async () => {
    const { approver, seen } = silent();
    const { b } = broker(approver, { timeoutMs: 20 });
    await b.confirm(CALL, REQ, live());
    expect(seen[0]!.signal.aborted).toBe(true);
  });

  it("an approver answering after the timeout cannot approve: its late submit is rejected", async () => {
    const { approver, seen } = silent();
    const { b } = broker(approver, { timeoutMs: 20 });
    const outcome = await b.confirm(CALL, REQ, live());
    expect(outcome.kind).toBe("failed_closed");
    expect(() => b.submit(RUN, seen[0]!.req.confirmationId, "allow-once")).toThrow(ConfirmationRejected);
    expect(b.records.map((r) => r.decision)).toEqual(["failed_closed"]);
  });

  it("a late self-answer of a timed-out confirmation does not approve the next pending one", async () => {
    // call 1 times out at 200 ms; its approver still answers allow-once at 260 ms, while call 2
    // (started at ~200 ms) is pending; call 2's own answer (deny) comes at ~320 ms.
    const { approver } = fakeApprover((_req, _signal, n) => (n === 1 ? sleep(260).then(() => "allow-once" as const) : sleep(120).then(() => "deny" as const)));
    const { b } = broker(approver, { timeoutMs: 200 });
    const first = await b.confirm(CALL, REQ, live());
    const second = await b.confirm({ ...CALL, id: "call_2" }, REQ, live());
    expect(first.kind === "failed_closed" && first.code).toBe("approver_timeout");
    expect(second.kind).toBe("denied");
    await sleep(80);
    expect(b.records.map((r) => r.decision)).toEqual(["failed_closed", "deny"]);
  });

  it("a throwing approver fails closed with approver_error", async () => {
    const { approver } = fakeApprover(async () => {
      throw new Error("terminal closed unexpectedly");
    });
    const { b } = broker(approver);
    const outcome = await b.confirm(CALL, REQ, live());
    expect(outcome).toMatchObject({ kind: "failed_closed", code: "approver_error" });
    expect(outcome.kind === "failed_closed" && outcome.message).toContain("terminal closed unexpectedly");
  });

  it("an approver that throws synchronously also fails closed", async () => {
    const approver: Approver = {
      name: "sync-thrower",
      hasUI: true,
      answer() {
        throw new Error("boom");
      },
    };
    const { b } = broker(approver);
    const outcome = await b.confirm(CALL, REQ, live());
    expect(outcome).toMatchObject({ kind: "failed_closed", code: "approver_error" });
    expect(b.records).toHaveLength(1);
    expect(b.records[0]!.decision).toBe("failed_closed");
  });

  it("ApproverDisconnected fails closed with approver_disconnected", async () => {
    const { approver } = fakeApprover(async () => {
      throw new ApproverDisconnected();
    });
    const { b } = broker(approver);
    const outcome = await b.confirm(CALL, REQ, live());
    expect(outcome).toMatchObject({ kind: "failed_closed", code: "approver_disconnected" });
  });

  it("a run cancelled while waiting fails closed with cancelled, and the approver's signal is aborted", async () => {
    const { approver, seen } = silent();
    const { b } = broker(approver);
    const ac = new AbortController();
    const pending = b.confirm(CALL, REQ, ac.signal);
    await asked(seen);
    ac.abort();
    const outcome = await pending;
    expect(outcome).toMatchObject({ kind: "failed_closed", code: "cancelled" });
    expect(seen[0]!.signal.aborted).toBe(true);
    expect(b.records[0]).toMatchObject({ decision: "failed_closed", code: "cancelled" });
  });

  it("an approver that rejects on abort still yields cancelled, not approver_error", async () => {
    const { approver, seen } = fakeApprover(
      (_r, signal) => new Promise<ApproverAnswer>((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
    );
    const { b } = broker(approver);
    const ac = new AbortController();
    const pending = b.confirm(CALL, REQ, ac.signal);
    await asked(seen);
    ac.abort();
    expect(await pending).toMatchObject({ kind: "failed_closed", code: "cancelled" });
  });

  it("an already aborted signal fails closed with cancelled without asking the approver", async () => {
    const { approver, seen } = fakeApprover(async () => "allow-once");
    const { b } = broker(approver);
    const ac = new AbortController();
    ac.abort();
    const outcome = await b.confirm(CALL, REQ, ac.signal);
    expect(outcome).toMatchObject({ kind: "failed_closed", code: "cancelled" });
    expect(seen).toHaveLength(0);
  });

  it("no UI fails closed with no_ui without asking the approver", async () => {
    const { approver, seen } = fakeApprover(async () => "allow-once", false);
    const { b } = broker(approver);
    expect(b.hasUI).toBe(false);
    const outcome = await b.confirm(CALL, REQ, live());
    expect(outcome).toMatchObject({ kind: "failed_closed", code: "no_ui" });
    expect(seen).toHaveLength(0);
    expect(b.records[0]).toMatchObject({ decision: "failed_closed", code: "no_ui" });
  });
});

describe("approval records", () => {
  it("have the approval-record fields and nothing else", async () => {
    const { approver } = fakeApprover(async () => "allow-once");
    const { b } = broker(approver);
    const outcome = await b.confirm(CALL, REQ, live());
    expect(b.records).toEqual([
      {
        run_id: RUN,
        trial_id: "trial-7",
        confirmation_id: outcome.confirmationId,
        tool_call_id: "call_1",
        tool: "bash",
        risk: "high",
        resources: ["/workspace/build"],
        decision: "allow-once",
        approver: "fake",
        decided_at: "2025-01-02T03:04:05.000Z",
        policy_version: "path-policy@3",
      },
    ]);
  });

  it("a failed-closed record carries its code; approved and denied records carry none", async () => {
    const { approver } = fakeApprover(async (_r, _s, n) => {
      if (n === 1) return "allow-once";
      if (n === 2) return "deny";
      throw new Error("x");
    });
    const { b } = broker(approver);
    for (let i = 0; i < 3; i++) await b.confirm(CALL, REQ, live());
    expect(b.records.map((r) => [r.decision, r.code])).toEqual([
      ["allow-once", undefined],
      ["deny", undefined],
      ["failed_closed", "approver_error"],
    ]);
    expect("code" in b.records[0]!).toBe(false);
  });

  it("contain no args, title or description text (secrets planted there never reach records or events)", async () => {
    const { approver } = fakeApprover(async (_r, _s, n) => {
      if (n === 1) return "allow-once";
      if (n === 2) return "deny";
      throw new Error("approver crashed");
    });
    const { b, events } = broker(approver, { timeoutMs: 50 });
    for (let i = 0; i < 3; i++) await b.confirm(CALL, REQ, live());
    const { b: timedOut } = broker(silent().approver, { timeoutMs: 10 });
    await timedOut.confirm(CALL, REQ, live());
    const dumped = JSON.stringify([b.records, timedOut.records, events]);
    for (const secret of SECRETS) expect(dumped).not.toContain(secret);
    expect(dumped).not.toContain("curl");
    expect(dumped).not.toContain("Authorization");
    expect(dumped).not.toContain(REQ.title);
    // the normalised resources are kept
    expect(JSON.stringify(b.records)).toContain("/workspace/build");
  });
});

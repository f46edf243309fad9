/**
 * createGatekeeper (harness/trial/agent/gatekeeper.ts): the beforeToolCall hook over a gate stack, a
 * real ConfirmationBroker with fake approvers, and an in-memory EnvView.
 */
import type { BeforeToolCallContext } from "@mariozechner/pi-agent-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createGatekeeper, digestArgs, type GatedCall } from "../../../../../harness/trial/agent/gatekeeper.ts";
import { toolErrorJson as blockedResult } from "../../../../../harness/trial/agent/tool-error.ts";
import { ConfirmationBroker } from "../../../../../harness/trial/approvers/broker.ts";
import type { Approver, ApproverAnswer } from "../../../../../harness/trial/approvers/types.ts";
import type { Decision, Gate, GateContext, ProposedCall } from "../../../../../gates/types.ts";
import type { PermissionLevel } from "../../../../../kernel/tools.ts";
import { createFakeEnv } from "../../../../../scripts/fixtures/fake-env.ts";

function approver(answer: () => Promise<ApproverAnswer>, hasUI = true): Approver & { asked: number } {
  const a = {
    name: "fake",
    hasUI,
    asked: 0,
    answer() {
      a.asked++;
      return answer();
    },
  };
  return a;
}

function setup(
  layers: Gate[],
  opts: { answer?: () => Promise<ApproverAnswer>; hasUI?: boolean; timeoutMs?: number; permissions?: Record<string, PermissionLevel> } = {},
) {
  const appr = approver(opts.answer ?? (async () => "allow-once"), opts.hasUI ?? true);
  const broker = new ConfirmationBroker({ runId: "run-1", trialId: "t-1", policyVersion: "test", approver: appr, timeoutMs: opts.timeoutMs ?? 2_000 });
  const log: string[] = [];
  const decided: GatedCall[] = [];
  const requested: { call: ProposedCall; digest: string }[] = [];
  const hook = createGatekeeper({
    layers,
    broker,
    env: createFakeEnv({ files: { "/workspace/a.txt": "a" } }),
    runId: "run-1",
    permissions: opts.permissions ?? { bash: "Execute", write: "Write", delete: "Destructive", read: "Read" },
    onRequested: (call, digest) => {
      log.push("requested");
      requested.push({ call, digest });
    },
    onDecided: (g) => {
      log.push("decided");
      decided.push(g);
    },
  });
  const run = (tool: string, args: Record<string, unknown>, signal?: AbortSignal) =>
    hook({ toolCall: { type: "toolCall", id: `call_${tool}`, name: tool, arguments: args }, args } as unknown as BeforeToolCallContext, signal);
  return { run, broker, appr, log, decided, requested };
}

const gate = (name: string, decide: (call: ProposedCall, ctx: GateContext) => Decision | Promise<Decision>, log?: string[]): Gate => ({
  name,
  decide(call, ctx) {
    log?.push(`gate:${name}`);
    return decide(call, ctx);
  },
});
const confirmGate = gate("asker", () => ({ kind: "confirm", title: "Delete?", description: "delete /tmp/x", resources: ["/tmp/x"], risk: "high" }));

function parseReason(result: { block?: boolean; reason?: string } | undefined) {
  expect(result?.block).toBe(true);
  const parsed = JSON.parse(result!.reason!) as unknown;
  expect(Object.keys(parsed as object)).toEqual(["ok", "error"]);
  const p = parsed as { ok: boolean; error: { code: string; message: string } };
  expect(p.ok).toBe(false);
  expect(Object.keys(p.error).sort()).toEqual(["code", "message"]);
  expect(typeof p.error.code).toBe("string");
  expect(typeof p.error.message).toBe("string");
  return p.error;
}

describe("createGatekeeper", () => {
  it("an allowed call is not blocked; onDecided sees the verdict, digest and timing", async () => {
    const s = setup([gate("ok", () => ({ kind: "allow" }))]);
    expect(await s.run("read", { path: "/workspace/a.txt" })).toBeUndefined();
    expect(s.decided).toHaveLength(1);
    const d = s.decided[0]!;
    expect(d.verdict.kind).toBe("allowed");
    expect(d.digest).toBe(digestArgs({ path: "/workspace/a.txt" }));
    expect(d.call).toMatchObject({ id: "call_read", tool: "read", args: { path: "/workspace/a.txt" }, permission: "Read" });
    expect(d.gateMs).toBeGreaterThanOrEqual(0);
  });

  it("a gate deny becomes {ok:false,error:{code,message}} JSON in `reason`", async () => {
    const s = setup([gate("no", () => ({ kind: "deny", code: "protected_path", reason: "~/.ssh is protected" }))]);
    const err = parseReason(await s.run("write", { path: "/home/user/.ssh/authorized_keys", content: "x" }));
    expect(err).toEqual({ code: "protected_path", message: "~/.ssh is protected" });
    expect(s.decided[0]!.verdict).toMatchObject({ kind: "blocked", code: "protected_path", gate: "no" });
    expect(s.appr.asked).toBe(0);
  });

  it("blockedResult escapes quotes and newlines into valid JSON", () => {
    const r = blockedResult("user_denied", 'he said "no"\nand left');
    expect(JSON.parse(r)).toEqual({ ok: false, error: { code: "user_denied", message: 'he said "no"\nand left' } });
  });

  it("a confirmation denied by the approver blocks with user_denied", async () => {
    const s = setup([confirmGate], { answer: async () => "deny" });
    const err = parseReason(await s.run("bash", { command: "rm -rf /tmp/x" }));
    expect(err.code).toBe("user_denied");
    expect(s.appr.asked).toBe(1);
    expect(s.decided[0]!.verdict).toMatchObject({ kind: "blocked", code: "user_denied", gate: "approver" });
    expect(s.broker.records.map((r) => r.decision)).toEqual(["deny"]);
  });

  it("a confirmation approved by the approver lets the call run, verdict approved with the confirmation id", async () => {
    const s = setup([confirmGate], { answer: async () => "allow-once" });
    expect(await s.run("bash", { command: "rm -rf /tmp/x" })).toBeUndefined();
    const v = s.decided[0]!.verdict;
    expect(v.kind).toBe("approved");
    expect(v.kind === "approved" && v.confirmationId).toBe(s.broker.records[0]!.confirmation_id);
  });

  it("a confirmation with no UI blocks with no_ui; a timeout with approver_timeout", async () => {
    const headless = setup([confirmGate], { hasUI: false });
    expect(parseReason(await headless.run("bash", { command: "rm -rf /tmp/x" })).code).toBe("no_ui");
    const slow = setup([confirmGate], { answer: () => new Promise(() => {}), timeoutMs: 20 });
    expect(parseReason(await slow.run("bash", { command: "rm -rf /tmp/x" })).code).toBe("approver_timeout");
  });

  it("a gate asking through ctx.ui: approved -> verdict approved; denied -> the gate's deny; timeout -> approver_timeout", async () => {
    const uiGate = gate("ui", async (_c, ctx) =>
      (await ctx.ui.confirm({ title: "t", description: "d", resources: ["/tmp/x"], risk: "high" }))
        ? { kind: "allow" }
        : { kind: "deny", code: "user_denied", reason: "Blocked by user" },
    );
    const yes = setup([uiGate], { answer: async () => "allow-once" });
    expect(await yes.run("bash", { command: "sudo ls" })).toBeUndefined();
    expect(yes.decided[0]!.verdict.kind).toBe("approved");

    const no = setup([uiGate], { answer: async () => "deny" });
    expect(parseReason(await no.run("bash", { command: "sudo ls" }))).toEqual({ code: "user_denied", message: "Blocked by user" });

    const slow = setup([uiGate], { answer: () => new Promise(() => {}), timeoutMs: 20 });
    const err = parseReason(await slow.run("bash", { command: "sudo ls" }));
    expect(err.code).toBe("approver_timeout");
    expect(slow.decided[0]!.verdict).toMatchObject({ kind: "blocked", confirmation: { kind: "failed_closed", code: "approver_timeout" } });
  });

  it("ctx.ui.hasUI mirrors the approver", async () => {
    const seen: boolean[] = [];
    const probe = gate("probe", (_c, ctx) => (seen.push(ctx.ui.hasUI), { kind: "allow" }));
    await setup([probe], { hasUI: false }).run("read", { path: "/a" });
    await setup([probe], { hasUI: true }).run("read", { path: "/a" });
    expect(seen).toEqual([false, true]);
  });

  it("gates receive frozen args: a mutating gate is denied with gate_error and the next layer never runs", async () => {
    const log: string[] = [];
    const mutator = gate("mutator", (call) => {
      (call.args as Record<string, unknown>).command = "echo harmless";
      return { kind: "allow" };
    });
    const s = setup([mutator, gate("after", () => ({ kind: "allow" }), log)]);
    const err = parseReason(await s.run("bash", { command: "rm -rf ~" }));
    expect(err.code).toBe("gate_error");
    expect(log).toEqual([]);
  });

  it("nested args and the call itself are frozen too", async () => {
    const frozen: boolean[] = [];
    const probe = gate("probe", (call) => {
      const edits = call.args.edits as { oldText: string }[];
      frozen.push(Object.isFrozen(call), Object.isFrozen(call.args), Object.isFrozen(edits), Object.isFrozen(edits[0]));
      return { kind: "allow" };
    });
    const args = { path: "/workspace/a.txt", edits: [{ oldText: "a", newText: "b" }] };
    const s = setup([probe]);
    await s.run("edit", args);
    expect(frozen).toEqual([true, true, true, true]);
    // the agent's own arguments object is left alone
    expect(Object.isFrozen(args)).toBe(false);
    expect(Object.isFrozen(args.edits[0])).toBe(false);
  });

  it("a nested mutation attempt also denies with gate_error", async () => {
    const mutator = gate("mutator", (call) => {
      (call.args.edits as { newText: string }[])[0]!.newText = "evil";
      return { kind: "allow" };
    });
    const s = setup([mutator]);
    expect(parseReason(await s.run("edit", { path: "/w", edits: [{ oldText: "a", newText: "b" }] })).code).toBe("gate_error");
  });

  it("onRequested runs before any gate, with the frozen call and its digest; onDecided after", async () => {
    const s = setup([]);
    const s2 = setup([gate("g", () => (s2.log.push("gate"), { kind: "allow" }))]);
    await s2.run("bash", { command: "ls" });
    expect(s2.log).toEqual(["requested", "gate", "decided"]);
    expect(s2.requested[0]!.digest).toBe(digestArgs({ command: "ls" }));
    expect(Object.isFrozen(s2.requested[0]!.call.args)).toBe(true);
    await s.run("bash", { command: "ls" });
    expect(s.log).toEqual(["requested", "decided"]);
  });

  it("puts the tool's permission level on the call, and none for an unknown tool", async () => {
    const calls: ProposedCall[] = [];
    const s = setup([gate("p", (c) => (calls.push(c), { kind: "allow" }))]);
    await s.run("delete", { path: "/tmp/x" });
    await s.run("mystery", {});
    expect(calls[0]!.permission).toBe("Destructive");
    expect("permission" in calls[1]!).toBe(false);
  });

  it("an aborted run signal blocks with cancelled", async () => {
    const ac = new AbortController();
    ac.abort();
    const s = setup([gate("ok", () => ({ kind: "allow" }))]);
    expect(parseReason(await s.run("read", { path: "/a" }, ac.signal)).code).toBe("cancelled");
  });
});

describe("createGatekeeper with a user who takes longer than the gate timeout", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // A question a gate asks through ctx.ui that the user never answers ends with the approver's
  // timeout; the broker's pending confirmation is withdrawn, so the next question reaches the
  // approver instead of failing with "another confirmation is still pending".
  it("an unanswered question ends with the approver timeout and does not poison the next confirmation", async () => {
    vi.useFakeTimers();
    let n = 0;
    const uiGate = gate("ui", async (_c, ctx) =>
      (await ctx.ui.confirm({ title: "t", description: "d", resources: ["/tmp/x"], risk: "high" }))
        ? { kind: "allow" }
        : { kind: "deny", code: "user_denied", reason: "no" },
    );
    // first question: the user never answers; second question: the user approves at once
    const s = setup([uiGate], { answer: () => (++n === 1 ? new Promise<ApproverAnswer>(() => {}) : Promise.resolve("allow-once")), timeoutMs: 30_000 });
    const first = s.run("bash", { command: "sudo rm -rf /tmp/x" });
    // the gate's own clock is stopped while it asks; the approver's 30 s timeout ends the question
    await vi.advanceTimersByTimeAsync(30_001);
    expect((await first)?.block).toBe(true);
    const second = s.run("bash", { command: "sudo ls" });
    await vi.advanceTimersByTimeAsync(10);
    expect(await second).toBeUndefined();
    expect(s.appr.asked).toBe(2);
  });
});

describe("digestArgs", () => {
  it("is independent of key order, at every depth", () => {
    const a = { path: "/w/a", edits: [{ oldText: "x", newText: "y" }], opts: { b: 1, a: [1, 2] } };
    const b = { opts: { a: [1, 2], b: 1 }, edits: [{ newText: "y", oldText: "x" }], path: "/w/a" };
    expect(digestArgs(a)).toBe(digestArgs(b));
    expect(digestArgs(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes when any value, array order, or type changes", () => {
    const base = digestArgs({ command: "rm -rf /tmp/x", list: [1, 2] });
    expect(digestArgs({ command: "rm -rf /tmp/y", list: [1, 2] })).not.toBe(base);
    expect(digestArgs({ command: "rm -rf /tmp/x", list: [2, 1] })).not.toBe(base);
    expect(digestArgs({ command: "rm -rf /tmp/x", list: ["1", 2] })).not.toBe(base);
    expect(digestArgs({ command: "rm -rf /tmp/x", list: [1, 2], extra: true })).not.toBe(base);
    expect(digestArgs({ a: { b: 1 } })).not.toBe(digestArgs({ "a.b": 1 }));
    expect(digestArgs({ a: "b" })).not.toBe(digestArgs({ 'a":"b': "" }));
  });
});

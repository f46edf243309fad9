/** The `human` approver: shows tool, operation and targets; y approves once, anything else denies, a closed terminal fails closed. */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ConfirmationBroker } from "../../../../../harness/trial/approvers/broker.ts";
import { createHuman } from "../../../../../harness/trial/approvers/human.ts";

const request = { title: "Delete files?", description: "rm -r build", resources: ["/workspace/build"], risk: "high" as const };
const call = { id: "call_1", tool: "bash", args: { command: "rm -r build" } };

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (b: Buffer) => (shown += b.toString()));
  return { input, output, shown: () => shown };
}

describe("human approver", () => {
  it.each([
    ["y\n", "approved"],
    ["yes\n", "approved"],
    ["n\n", "denied"],
    ["\n", "denied"],
    ["sure\n", "denied"],
  ])("answer %j -> %s, after showing tool and targets", async (typed, expected) => {
    const t = terminal();
    const broker = new ConfirmationBroker({ runId: "r", trialId: "t", policyVersion: "p", approver: createHuman(t.input, t.output) });
    const pending = broker.confirm(call, request, new AbortController().signal);
    setTimeout(() => t.input.write(typed), 10);
    expect((await pending).kind).toBe(expected);
    expect(t.shown()).toContain("tool: bash");
    expect(t.shown()).toContain("/workspace/build");
    expect(t.shown()).toContain("Allow once? [y/N]");
  });

  it("a terminal that closes before answering fails closed as disconnected", async () => {
    const t = terminal();
    const broker = new ConfirmationBroker({ runId: "r", trialId: "t", policyVersion: "p", approver: createHuman(t.input, t.output) });
    const pending = broker.confirm(call, request, new AbortController().signal);
    setTimeout(() => t.input.end(), 10);
    expect(await pending).toMatchObject({ kind: "failed_closed", code: "approver_disconnected" });
  });

  it("a person who never answers is timed out", async () => {
    const t = terminal();
    const broker = new ConfirmationBroker({ runId: "r", trialId: "t", policyVersion: "p", approver: createHuman(t.input, t.output), timeoutMs: 50 });
    expect(await broker.confirm(call, request, new AbortController().signal)).toMatchObject({ kind: "failed_closed", code: "approver_timeout" });
  });
});

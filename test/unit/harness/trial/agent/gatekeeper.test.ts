/**
 * Headless confirmations are counted alike across gates (harness/trial/agent/gatekeeper.ts): a gate
 * that checks for a UI and denies with `no_ui`, and a gate that asks and gets failed_closed, both
 * leave one approval record with decision failed_closed and code no_ui.
 */
import type { BeforeToolCallContext } from "@mariozechner/pi-agent-core";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import type { Gate } from "../../../../../gates/types.ts";
import { createGatekeeper } from "../../../../../harness/trial/agent/gatekeeper.ts";
import { ConfirmationBroker } from "../../../../../harness/trial/approvers/broker.ts";
import { createFakeEnv } from "../../../../../scripts/fixtures/fake-env.ts";

async function headlessRecords(layers: Gate[], command: string) {
  const broker = new ConfirmationBroker({
    runId: "r",
    trialId: "t",
    policyVersion: "p",
    approver: { name: "headless", hasUI: false, answer: async () => "deny" },
    timeoutMs: 1000,
  });
  const hook = createGatekeeper({
    layers,
    broker,
    env: createFakeEnv({ files: { "/workspace/x/a.txt": "a" } }),
    runId: "r",
    permissions: { bash: "Execute" },
    onDecided: () => {},
  });
  const args = { command };
  const result = await hook({ toolCall: { type: "toolCall", id: "c1", name: "bash", arguments: args }, args } as unknown as BeforeToolCallContext);
  return { blocked: result?.block === true, records: broker.records.map((r) => ({ decision: r.decision, code: r.code })) };
}

describe("headless confirmations", () => {
  it("a gate that checks hasUI first (pi-permission-gate) records the question it could not ask", async () => {
    const r = await headlessRecords(loadGateConfig("pi-permission-gate").layers, "rm -rf x");
    expect(r).toEqual({ blocked: true, records: [{ decision: "failed_closed", code: "no_ui" }] });
  });

  it("Pi's permission-gate extension, which checks ctx.hasUI and blocks, records the same (pi-extension-permission-gate)", async () => {
    const r = await headlessRecords(loadGateConfig("pi-extension-permission-gate").layers, "rm -rf x");
    expect(r).toEqual({ blocked: true, records: [{ decision: "failed_closed", code: "no_ui" }] });
    expect(await headlessRecords(loadGateConfig("pi-extension-permission-gate").layers, "ls")).toEqual({ blocked: false, records: [] });
  });

  it("a gate that asks (shell-ast) records the same", async () => {
    const r = await headlessRecords(loadGateConfig("shell-ast").layers, "rm -rf x");
    expect(r).toEqual({ blocked: true, records: [{ decision: "failed_closed", code: "no_ui" }] });
  });

  it("other denials record no question", async () => {
    const denier: Gate = { name: "d", decide: () => ({ kind: "deny", code: "path_denied", reason: "no" }) };
    expect(await headlessRecords([denier], "ls")).toEqual({ blocked: true, records: [] });
  });
});

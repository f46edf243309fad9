import { describe, expect, it } from "vitest";
import { agentHarmful, agentLabel, createDriver, DRIVERS, expandSelector, parseAgentSelector } from "../../../../../../harness/trial/agent/drivers/registry.ts";
import type { LoadedTask } from "../../../../../../harness/model/task/load.ts";

const persona = (name: string, harmful: boolean) => ({ name, description: "", harmful, provenance: "", steps: [{ say: "hi" }] });
const task = { reference: { steps: [{ say: "done" }] }, personas: [persona("careful", false), persona("careless", true)] } as unknown as LoadedTask;

describe("driver registry", () => {
  it("parses every selector to one entry, or none", () => {
    expect(parseAgentSelector("nop")).toEqual({ kind: "nop" });
    expect(parseAgentSelector("reference")).toEqual({ kind: "reference" });
    expect(parseAgentSelector("scripted")).toEqual({ kind: "scripted" });
    expect(parseAgentSelector("scripted:careless")).toEqual({ kind: "scripted", persona: "careless" });
    expect(parseAgentSelector("openai-compatible/llama3")).toEqual({ kind: "model", id: "openai-compatible/llama3" });
    expect(parseAgentSelector("gpt")).toBeUndefined();
  });

  it("expands, labels and marks harmful agents", () => {
    const all = expandSelector({ kind: "scripted" }, task);
    expect(all.map(agentLabel)).toEqual(["scripted:careful", "scripted:careless"]);
    expect(all.map(agentHarmful)).toEqual([false, true]);
    expect(expandSelector({ kind: "scripted", persona: "careless" }, task).map(agentLabel)).toEqual(["scripted:careless"]);
    expect(agentLabel({ kind: "model", id: "a/b" })).toBe("a/b");
    expect(agentHarmful({ kind: "reference" })).toBe(false);
    // A real model has no harm label: it is measured against itself under gate none.
    expect(agentHarmful({ kind: "model", id: "a/b" })).toBeNull();
  });

  it("every entry has distinct kinds; scripted drivers estimate tokens behind the meter", () => {
    expect(new Set(DRIVERS.map((d) => d.kind)).size).toBe(DRIVERS.length);
    const d = createDriver({ kind: "reference" }, task, { trialId: "t", gate: "none", approver: "-", attempt: 1 });
    expect(d.meter.tally.source).toBe("estimated:o200k_base");
  });
});

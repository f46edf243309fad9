import { describe, expect, it } from "vitest";
import { loadGateConfig, type GateConfig } from "../../../../../gates/config.ts";
import { agentsForTask, checkPersonasExist, pairGates, parseAgentSelectors } from "../../../../../harness/run/matrix/agents.ts";
import { planTrials } from "../../../../../harness/run/matrix/matrix.ts";
import type { LoadedTask } from "../../../../../harness/model/task/load.ts";
import { InputError } from "../../../../../kernel/errors.ts";
import { agentIdentity, agentLabel, baselineGateOf } from "../../../../../harness/trial/agent/drivers/registry.ts";

const persona = (name: string, harmful: boolean) => ({ name, description: "d", harmful, provenance: "p", steps: [{ say: "x" }] });
const task = {
  task: { id: "t" },
  reference: { steps: [{ say: "done" }] },
  personas: [persona("careless", true), persona("careful", false)],
} as unknown as LoadedTask;

const gate = (name: string) => loadGateConfig(name);
const names = (gs: readonly GateConfig[]) => gs.map((g) => g.name);

describe("--agents claude-code", () => {
  it("expands to the reference and every hand-written persona, labelled as played through the product", () => {
    const agents = agentsForTask(parseAgentSelectors("claude-code"), task);
    expect(agents.map(agentLabel)).toEqual(["claude-code:reference", "claude-code:scripted:careless", "claude-code:scripted:careful"]);
    expect(agentsForTask(parseAgentSelectors("claude-code:careless"), task).map(agentLabel)).toEqual(["claude-code:scripted:careless"]);
    expect(agentsForTask(parseAgentSelectors("claude-code:reference"), task).map(agentLabel)).toEqual(["claude-code:reference"]);
  });

  it("its identity (hashed into the fingerprint) holds the pinned product and the script it plays", () => {
    const [reference, careless] = agentsForTask(parseAgentSelectors("claude-code"), task);
    const id = agentIdentity(careless!, task) as { product: { npm: string; version: string; digest: string | null }; plays: unknown };
    expect(id.product).toMatchObject({ npm: "@anthropic-ai/claude-code", version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    expect(id.product.digest === null || /^[0-9a-f]{64}$/.test(id.product.digest)).toBe(true);
    expect(id.plays).toEqual({ persona: task.personas[0] });
    expect(agentIdentity(reference!, task)).toMatchObject({ plays: { reference: task.reference.steps } });
    expect(JSON.stringify(agentIdentity(careless!, task))).not.toBe(
      JSON.stringify(agentIdentity(agentsForTask(parseAgentSelectors("scripted:careless"), task)[0]!, task)),
    );
  });

  it("a persona no selected task has is bad input", () => {
    expect(() => checkPersonasExist(parseAgentSelectors("claude-code:nope"), [task])).toThrow(InputError);
    expect(() => checkPersonasExist(parseAgentSelectors("claude-code:careful"), [task])).not.toThrow();
  });
});

describe("pairing agents with gates", () => {
  const all = ["none", "layered", "claude-code-default", "claude-code-accept-edits"].map(gate);

  it("without --gates, each kind of agent gets the configurations it can run under", () => {
    expect(names(pairGates(all, parseAgentSelectors("reference,scripted"), false))).toEqual(["none", "layered"]);
    expect(names(pairGates(all, parseAgentSelectors("claude-code"), false))).toEqual(["claude-code-default", "claude-code-accept-edits"]);
    expect(names(pairGates(all, parseAgentSelectors("claude-code,scripted"), false))).toEqual(names(all));
  });

  it("an explicit --gates entry no selected agent runs under is bad input naming it", () => {
    const e = (() => {
      try {
        pairGates([gate("claude-code-default")], parseAgentSelectors("scripted"), true);
      } catch (err) {
        return err as InputError;
      }
    })();
    expect(e).toBeInstanceOf(InputError);
    expect(e!.message).toMatch(/claude-code-default/);
    expect(e!.message).toMatch(/--agents claude-code/);
    expect(() => pairGates([gate("layered")], parseAgentSelectors("claude-code"), true)).toThrow(/gatebench's own agent loop/);
  });

  it("an agent no explicit entry can gate is bad input", () => {
    expect(() => pairGates([gate("none"), gate("claude-code-plan")], parseAgentSelectors("claude-code,reference"), true)).not.toThrow();
    expect(() => pairGates([gate("claude-code-plan")], parseAgentSelectors("claude-code,reference"), true)).toThrow(/--agents/);
  });

  it("the matrix pairs a product's agents only with the product's configurations", () => {
    const specs = planTrials({
      runId: "r",
      tasks: [task],
      agents: parseAgentSelectors("claude-code:careless,scripted:careless"),
      gates: all,
      approvers: ["headless"],
      trials: 1,
    } as never);
    expect(specs.map((s) => `${agentLabel(s.agent)} ${s.gate.name} ${s.approver}`).sort()).toEqual([
      "claude-code:scripted:careless claude-code-accept-edits -",
      "claude-code:scripted:careless claude-code-default -",
      "scripted:careless layered headless",
      "scripted:careless none -",
    ]);
  });
});

describe("--agents gemini-cli", () => {
  it("expands like every product's agents, runs only under Gemini CLI's configurations, and is paired with its yolo mode", () => {
    expect(agentsForTask(parseAgentSelectors("gemini-cli"), task).map(agentLabel)).toEqual([
      "gemini-cli:reference",
      "gemini-cli:scripted:careless",
      "gemini-cli:scripted:careful",
    ]);
    const gates = ["none", "codex-full-auto", "gemini-cli-default", "gemini-cli-yolo"].map(gate);
    expect(names(pairGates(gates, parseAgentSelectors("gemini-cli"), false))).toEqual(["gemini-cli-default", "gemini-cli-yolo"]);
    expect(() => pairGates([gate("codex-full-auto")], parseAgentSelectors("gemini-cli"), true)).toThrow(/--agents/);
    expect(baselineGateOf("gemini-cli:scripted:careless")).toBe("gemini-cli-yolo");
    const id = agentIdentity(agentsForTask(parseAgentSelectors("gemini-cli:careless"), task)[0]!, task) as { product: { npm: string } };
    expect(id.product.npm).toBe("@google/gemini-cli");
  });
});

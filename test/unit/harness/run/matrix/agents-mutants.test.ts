import { describe, expect, it } from "vitest";
import { agentsForTask, checkPersonasExist, parseAgentSelectors } from "../../../../../harness/run/matrix/agents.ts";
import type { LoadedTask } from "../../../../../harness/model/task/load.ts";
import type { Persona } from "../../../../../harness/model/task/schema.ts";

const persona = (name: string, family?: string): Persona => ({
  name,
  description: "d",
  harmful: true,
  provenance: "p",
  ...(family ? { family } : {}),
  steps: [{ say: "x" }],
});
const task = {
  task: { id: "t" },
  personas: [persona("careless")],
  generated: [persona("careless--rm-fr", "flags"), persona("careless--base64", "indirection")],
} as unknown as LoadedTask;
const names = (spec: string) => agentsForTask(parseAgentSelectors(spec), task).map((a) => (a.kind === "persona" ? a.persona.name : a.kind));

describe("--agents and generated personas", () => {
  it("the default scripted set leaves the generated personas out", () => {
    expect(names("reference,scripted")).toEqual(["reference", "careless"]);
  });
  it("mutants runs every generated persona; scripted:<name> finds one by name", () => {
    expect(names("mutants")).toEqual(["careless--rm-fr", "careless--base64"]);
    expect(names("scripted:careless--base64")).toEqual(["careless--base64"]);
    expect(() => checkPersonasExist(parseAgentSelectors("scripted:careless--base64"), [task])).not.toThrow();
    expect(() => checkPersonasExist(parseAgentSelectors("scripted:nope"), [task])).toThrow(/nope/);
  });
});

describe("the default run's evasion sample", () => {
  const sampleTask = {
    task: { id: "t" },
    personas: [persona("careless")],
    generated: [
      persona("careless--rm-r-f", "flags"),
      persona("careless--rm-fr", "flags"),
      persona("careless--base64", "indirection"),
      persona("zz--b", "indirection"),
    ],
  } as unknown as LoadedTask;
  const sample = (spec: string) => agentsForTask(parseAgentSelectors(spec), sampleTask);

  it("mutants:sample takes the first variant by name of each family, marked as the robustness sample", () => {
    const agents = sample("mutants:sample");
    expect(agents.map((a) => (a.kind === "persona" ? a.persona.name : a.kind))).toEqual(["careless--base64", "careless--rm-fr"]);
    expect(agents.every((a) => a.kind === "persona" && a.robustnessSample === true)).toBe(true);
  });

  it("is part of the default agents; mutants (all) carries no mark", () => {
    expect(agentsForTask(parseAgentSelectors(undefined), sampleTask).map((a) => (a.kind === "persona" ? a.persona.name : a.kind))).toEqual([
      "reference",
      "careless",
      "careless--base64",
      "careless--rm-fr",
    ]);
    expect(sample("mutants").some((a) => a.kind === "persona" && a.robustnessSample)).toBe(false);
  });

  it("runs under the robustness user only; every other agent under every user of the run", async () => {
    const { planTrials } = await import("../../../../../harness/run/matrix/matrix.ts");
    const { loadGateConfig } = await import("../../../../../gates/config.ts");
    const specs = planTrials({
      runId: "r",
      tasks: [sampleTask],
      gates: [loadGateConfig("shell-ast")],
      agents: parseAgentSelectors("scripted,mutants:sample"),
      approvers: ["fatigued", "rubber-stamp"],
      trials: 1,
    });
    const users = (name: string) => specs.filter((s) => s.agent.kind === "persona" && s.agent.persona.name === name).map((s) => s.approver);
    expect(users("careless")).toEqual(["fatigued", "rubber-stamp"]);
    expect(users("careless--rm-fr")).toEqual(["headless"]);
  });
});

import { describe, expect, it } from "vitest";
import { agentsForTask, checkPersonasExist, parseAgentSelectors } from "../../../../harness/runner/agents.ts";
import type { LoadedTask } from "../../../../harness/task/load.ts";
import type { Persona } from "../../../../harness/task/schema.ts";

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

/**
 * A whole trial (harness/trial/trial.ts: the real agent loop, gatekeeper, confirmation broker,
 * simulated users, call book and world states) run in process on in-memory worlds
 * (fake-worlds.ts), with a task, its personas and a gate configuration built in memory. Unit
 * tests run trials only through `runFakeTrial`, whose worlds are always the in-memory ones
 * (test/unit/architecture/imports.test.ts keeps `runTrial` itself out of test/unit/).
 */
import type { GateConfig } from "../../gates/config.ts";
import type { Gate } from "../../gates/types.ts";
import type { LoadedTask } from "../../harness/model/task/load.ts";
import { TaskSchema, type Persona, type Step } from "../../harness/model/task/schema.ts";
import { WorldStates } from "../../harness/trial/states/world-states.ts";
import { WorldTemplates } from "../../harness/trial/states/world-templates.ts";
import { runTrial, type TrialResult, type TrialSpec } from "../../harness/trial/trial.ts";
import type { FakeWorlds } from "./fake-worlds.ts";

export interface FakeTaskSpec {
  id: string;
  personas: { name: string; harmful: boolean; steps: Step[] }[];
  authorized?: { delete?: string[]; modify?: string[]; append?: string[] };
  limits?: Partial<{ agent_timeout_sec: number; call_timeout_sec: number; test_timeout_sec: number; max_turns: number }>;
}

/** A task as the loader would give it, with no folder behind it (the in-memory worlds stand for its setup and test). */
export function fakeTask(spec: FakeTaskSpec): LoadedTask {
  const task = TaskSchema.parse({
    id: spec.id,
    title: `in-memory ${spec.id}`,
    category: "deletion",
    instruction: "in-memory task",
    authorized: { delete: spec.authorized?.delete ?? [], modify: spec.authorized?.modify ?? [], append: spec.authorized?.append ?? [] },
    provenance: "unit test",
    limits: { agent_timeout_sec: 30, call_timeout_sec: 10, test_timeout_sec: 10, max_turns: 20, ...spec.limits },
  });
  const personas: Persona[] = spec.personas.map((p) => ({ ...p, description: p.name, provenance: "unit test" }));
  const dir = `/nonexistent/in-memory-tasks/${spec.id}`;
  return { task, dir, setupPath: `${dir}/setup.sh`, testsDir: `${dir}/tests`, reference: { steps: [{ say: "done" }] }, personas };
}

/** A gate configuration of the given layers under the default OS profile. */
export function fakeGate(name: string, layers: Gate[]): GateConfig {
  return {
    name,
    description: `in-memory ${name}`,
    source: "unit test",
    spec: name,
    integrity: "enforce",
    sandbox: { kind: "default" },
    layers,
    layerKinds: layers.map((l) => l.name),
    policyVersion: `${name}@test`,
  };
}

/** The run's shared states over `worlds` (the prefix cache), as the matrix makes them. */
export function sharedStates(worlds: FakeWorlds): { templates: WorldTemplates; states: WorldStates } {
  const templates = new WorldTemplates(worlds);
  return { templates, states: new WorldStates(templates) };
}

export type FakeTrialSpec = Omit<TrialSpec, "worlds" | "runId" | "attempt"> & { worlds: FakeWorlds; runId?: string; attempt?: number };

/** One trial of the persona `agent` on `worlds`; with `states` (sharedStates) it shares world states with the trials before it. */
export function runFakeTrial(spec: FakeTrialSpec): Promise<TrialResult> {
  return runTrial({ runId: "unit", attempt: 1, ...spec });
}

/** The persona `name` of `task` as an agent. */
export function persona(task: LoadedTask, name: string): TrialSpec["agent"] {
  const p = task.personas.find((x) => x.name === name);
  if (!p) throw new Error(`no persona ${name} in ${task.task.id}`);
  return { kind: "persona", persona: p };
}

/**
 * The driver registry: nop, the reference, scripted personas, real models. One entry per kind;
 * adding a driver means adding an entry here (its selector, expansion, label and creation).
 */
import type { LoadedTask } from "../../../model/task/load.ts";
import type { Persona } from "../../../model/task/schema.ts";
import { createModelDriver } from "./model.ts";
import type { Recordings } from "./recordings.ts";
import { createNopDriver, createScriptedDriver } from "./scripted.ts";
import type { Driver, DriverSpec } from "./types.ts";

export type { Driver, DriverSpec, TokenMeter } from "./types.ts";

const nop: DriverSpec<{ kind: "nop" }, { kind: "nop" }> = {
  selectorKind: "nop",
  kind: "nop",
  syntax: "nop",
  parse: (s) => (s === "nop" ? { kind: "nop" } : undefined),
  expand: (sel) => [sel],
  label: () => "nop",
  harmful: () => false,
  deterministic: true,
  create: () => createNopDriver(),
  identity: () => ({ kind: "nop" }),
};

const reference: DriverSpec<{ kind: "reference" }, { kind: "reference" }> = {
  selectorKind: "reference",
  kind: "reference",
  syntax: "reference",
  parse: (s) => (s === "reference" ? { kind: "reference" } : undefined),
  expand: (sel) => [sel],
  label: () => "reference",
  harmful: () => false,
  deterministic: true,
  create: (_spec, task) => createScriptedDriver("reference", task.reference.steps),
  identity: (_spec, task) => ({ kind: "reference", steps: task.reference.steps }),
};

/**
 * Personas: `scripted` (every hand-written persona), `scripted:<name>` (one, hand-written or
 * generated), `mutants` (every generated evasion variant under personas/generated/) and
 * `mutants:sample` (one variant per evasion family of each task, the first by name: the default
 * run's measure of evasion robustness; its agents carry `robustnessSample`).
 */
type ScriptedSelector = { kind: "scripted"; persona?: string; mutants?: "all" | "sample" };
type PersonaAgent = { kind: "persona"; persona: Persona; robustnessSample?: true };

/** One generated persona per evasion family, the first by name. */
export function samplePerFamily(generated: readonly Persona[]): Persona[] {
  const first = new Map<string, Persona>();
  for (const p of [...generated].sort((a, b) => a.name.localeCompare(b.name))) {
    const family = p.family ?? "unknown";
    if (!first.has(family)) first.set(family, p);
  }
  return [...first.values()];
}

const scripted: DriverSpec<ScriptedSelector, PersonaAgent> = {
  selectorKind: "scripted",
  kind: "persona",
  syntax: "scripted, scripted:<persona>, mutants, mutants:sample",
  parse: (s) =>
    s === "scripted"
      ? { kind: "scripted" }
      : s === "mutants"
        ? { kind: "scripted", mutants: "all" }
        : s === "mutants:sample"
          ? { kind: "scripted", mutants: "sample" }
          : s.startsWith("scripted:")
            ? { kind: "scripted", persona: s.slice("scripted:".length) }
            : undefined,
  expand: (sel, task) => {
    if (sel.mutants === "sample") return samplePerFamily(task.generated ?? []).map((persona) => ({ kind: "persona", persona, robustnessSample: true }));
    const pool = sel.mutants ? (task.generated ?? []) : sel.persona ? [...task.personas, ...(task.generated ?? [])] : task.personas;
    return pool.filter((p) => !sel.persona || sel.persona === p.name).map((persona) => ({ kind: "persona", persona }));
  },
  label: (spec) => `scripted:${spec.persona.name}`,
  harmful: (spec) => spec.persona.harmful,
  deterministic: true,
  create: (spec) => createScriptedDriver(`scripted:${spec.persona.name}`, spec.persona.steps),
  identity: (spec) => ({ kind: "persona", persona: spec.persona, sample: spec.robustnessSample === true }),
};

/** A real model; `recordings` (eval --record) records each of its trials as a persona. */
type ModelAgent = { kind: "model"; id: string; recordings?: Recordings };

const model: DriverSpec<ModelAgent, ModelAgent> = {
  selectorKind: "model",
  kind: "model",
  syntax: "<provider>/<model>",
  parse: (s) => (/^[\w.-]+\/.+$/.test(s) ? { kind: "model", id: s } : undefined),
  expand: (sel) => [sel],
  label: (spec) => spec.id,
  harmful: () => false,
  deterministic: false,
  create: (spec, task) => {
    const driver = createModelDriver(spec.id);
    return spec.recordings ? spec.recordings.attach(driver, task.task.id, spec.id) : driver;
  },
  identity: (spec) => ({ kind: "model", id: spec.id, baseUrl: process.env.GATEBENCH_BASE_URL ?? null }),
};

/** Tried in order when parsing a selector. */
export const DRIVERS = [nop, reference, scripted, model] as const;

type Entry = (typeof DRIVERS)[number];
type SelectorOf<D> = D extends DriverSpec<infer S, any> ? S : never;
type SpecOf<D> = D extends DriverSpec<any, infer S> ? S : never;
export type AgentSelector = SelectorOf<Entry>;
export type AgentSpec = SpecOf<Entry>;

function entryOf(agent: AgentSpec): DriverSpec<any, AgentSpec> {
  const entry = DRIVERS.find((d) => d.kind === agent.kind);
  if (!entry) throw new Error(`no driver for agent kind ${agent.kind}`);
  return entry as DriverSpec<any, AgentSpec>;
}

/** The first entry that parses `selector`, or undefined. */
export function parseAgentSelector(selector: string): AgentSelector | undefined {
  for (const d of DRIVERS) {
    const sel = d.parse(selector);
    if (sel) return sel;
  }
  return undefined;
}

/** The agents a selector stands for on one task. */
export function expandSelector(selector: AgentSelector, task: LoadedTask): AgentSpec[] {
  const entry = DRIVERS.find((d) => d.selectorKind === selector.kind) as DriverSpec<AgentSelector, AgentSpec> | undefined;
  if (!entry) throw new Error(`no driver for selector kind ${selector.kind}`);
  return entry.expand(selector, task);
}

export const SELECTOR_SYNTAX = DRIVERS.map((d) => d.syntax).join(", ");
export const agentLabel = (agent: AgentSpec): string => entryOf(agent).label(agent);
export const agentHarmful = (agent: AgentSpec): boolean => entryOf(agent).harmful(agent);
export const createDriver = (agent: AgentSpec, task: LoadedTask): Driver => entryOf(agent).create(agent, task);
export const agentDeterministic = (agent: AgentSpec): boolean => entryOf(agent).deterministic;
export const agentIdentity = (agent: AgentSpec, task: LoadedTask): unknown => entryOf(agent).identity(agent, task);

/**
 * Every kind of agent --agents can name, in one list: nop, the reference, scripted personas,
 * real models. Each driver's entry (a `DriverSpec`: its selector syntax, how a selector expands
 * on a task, its label, whether it is harmful and deterministic, how it is created and what
 * identifies it) is defined next to the driver; adding a driver means writing it and adding one
 * line here. The runner asks this list; it does not branch on the kind of driver.
 */
import type { LoadedTask } from "../../../model/task/load.ts";
import { modelDriver } from "./model.ts";
import { nopDriver, referenceDriver, scriptedDriver } from "./scripted.ts";
import type { Driver, DriverSpec } from "./types.ts";

export type { Driver, DriverSpec, TokenMeter } from "./types.ts";

/** Tried in order when parsing a selector. */
export const DRIVERS = [nopDriver, referenceDriver, scriptedDriver, modelDriver] as const;

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

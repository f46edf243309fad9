/**
 * Every kind of agent --agents can name, in one list: nop, the reference, scripted personas,
 * real models. Each driver's entry (a `DriverSpec`: its selector syntax, how a selector expands
 * on a task, its label, whether it is harmful and deterministic, how it is created and what
 * identifies it) is defined next to the driver; adding a driver means writing it and adding one
 * line here. The runner asks this list; it does not branch on the kind of driver.
 */
import { BASELINE_GATE } from "../../../../gates/config-entry.ts";
import type { LoadedTask } from "../../../model/task/load.ts";
import { cassetteDriver } from "./cassette.ts";
import { claudeCodeDriver } from "./claude-code.ts";
import { codexDriver } from "./codex.ts";
import { geminiCliDriver } from "./gemini-cli.ts";
import { modelDriver } from "./model.ts";
import { nopDriver, referenceDriver, scriptedDriver } from "./scripted.ts";
import type { Driver, DriverSpec, PreflightResult, TrialContext } from "./types.ts";

export type { Driver, DriverSpec, PreflightResult, TokenMeter, TrialContext } from "./types.ts";

/** Tried in order when parsing a selector (the cassette replay is never parsed: eval --replay makes it). */
export const DRIVERS = [nopDriver, referenceDriver, scriptedDriver, modelDriver, cassetteDriver, claudeCodeDriver, codexDriver, geminiCliDriver] as const;

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

export const SELECTOR_SYNTAX = DRIVERS.map((d) => d.syntax)
  .filter(Boolean)
  .join(", ");
export const agentLabel = (agent: AgentSpec): string => entryOf(agent).label(agent);
/** true / false: a persona's label; null: no label (a real model), measured against itself under `none`. */
export const agentHarmful = (agent: AgentSpec): boolean | null => entryOf(agent).harmful(agent);
export const createDriver = (agent: AgentSpec, task: LoadedTask, trial: TrialContext): Driver => entryOf(agent).create(agent, task, trial);
export const agentDeterministic = (agent: AgentSpec): boolean => entryOf(agent).deterministic;
/** Whether the agent's trials are samples of a stochastic model, repeated --epochs times. */
export const agentSampled = (agent: AgentSpec): boolean => entryOf(agent).sampled;

/** Every selector's checks before a run (drivers without checks pass). */
export async function preflightSelectors(selectors: readonly AgentSelector[], env: NodeJS.ProcessEnv = process.env): Promise<PreflightResult> {
  const problems: string[] = [];
  const notices: string[] = [];
  for (const sel of selectors) {
    const entry = DRIVERS.find((d) => d.selectorKind === sel.kind) as DriverSpec<AgentSelector, AgentSpec> | undefined;
    const r = entry?.preflight ? await entry.preflight(sel, env) : undefined;
    if (r) {
      problems.push(...r.problems);
      notices.push(...r.notices);
    }
  }
  return { problems, notices };
}
/** The agent product a selector's agents run (undefined: gatebench's own loop); gates/config.ts `product` must name the same. */
export const selectorProduct = (sel: AgentSelector): string | undefined => DRIVERS.find((d) => d.selectorKind === sel.kind)?.product;
export const agentProduct = (agent: AgentSpec): string | undefined => entryOf(agent).product;
/**
 * The gate a trial of the agent labelled `label` is paired with for harm prevented and utility:
 * its product's least-guarded configuration for an agent product's agents (`claude-code:…`),
 * `none` for every agent of gatebench's own loop.
 */
export function baselineGateOf(label: string): string {
  for (const d of DRIVERS) if (d.product && d.baselineGate && label.startsWith(`${d.selectorKind}:`)) return d.baselineGate;
  return BASELINE_GATE;
}
export const agentIdentity = (agent: AgentSpec, task: LoadedTask): unknown => entryOf(agent).identity(agent, task);

function selectorEntry(sel: AgentSelector): DriverSpec<AgentSelector, AgentSpec> {
  const entry = DRIVERS.find((d) => d.selectorKind === sel.kind);
  if (!entry) throw new Error(`no driver for selector kind ${sel.kind}`);
  return entry as unknown as DriverSpec<AgentSelector, AgentSpec>;
}

/** Whether the selector's agents talk to a model whose requests can be recorded (and replayed). */
export const selectorRecordable = (sel: AgentSelector): boolean => selectorEntry(sel).recording !== undefined;
/** The selector recording into `sink` (a cassette writer, or the persona recordings); others as they are. */
export const recordSelector = (sel: AgentSelector, sink: { cassette: object } | { recordings: object }): AgentSelector =>
  selectorEntry(sel).recording?.record(sel, sink) ?? sel;
/** The selector that replays `sel` from a cassette; a selector with nothing recorded stays as it is. */
export const replaySelector = (sel: AgentSelector, cassette: object): AgentSelector =>
  (selectorEntry(sel).recording?.replay(sel, cassette) as AgentSelector | undefined) ?? sel;
/** Whether the selector's trials are samples of a stochastic model (run --epochs times). */
export const selectorSampled = (sel: AgentSelector): boolean => selectorEntry(sel).sampled;
/** Whether the agent is in the default run's evasion sample (run under the robustness user only). */
export const agentRobustnessSample = (agent: AgentSpec): boolean => entryOf(agent).robustnessSample?.(agent) === true;

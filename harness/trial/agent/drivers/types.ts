/**
 * The driver contract: what plays the agent in a trial. A driver is a pi-agent-core `streamFn`
 * over a model, plus a token meter. Every kind of driver is one registry entry (see index.ts)
 * that parses its `--agents` selector, expands it into the agents of a task, labels them,
 * creates the driver and says whether the agent is a harmful persona.
 */
import type { StreamFn } from "@mariozechner/pi-agent-core";
import type { AssistantMessage, Model } from "@mariozechner/pi-ai";
import type { LoadedTask } from "../../../model/task/load.ts";
import type { TokenTally } from "../tokens.ts";

/**
 * Counts the tokens of a trial. The runner shows it every assistant message and reads the tally
 * at the end; whether the numbers come from the provider or from an estimate is the meter's business.
 */
export interface TokenMeter {
  observe(message: AssistantMessage): void;
  readonly tally: TokenTally;
}

export interface Driver {
  readonly name: string;
  readonly model: Model<any>;
  readonly streamFn: StreamFn;
  readonly meter: TokenMeter;
  readonly getApiKey?: (provider: string) => string | undefined;
}

/** One kind of driver. `Sel`: a parsed `--agents` selector; `Spec`: one agent of one task. */
export interface DriverSpec<Sel extends { kind: string }, Spec extends { kind: string }> {
  /** The `kind` of the selectors this entry parses and of the agents it expands to. */
  readonly selectorKind: Sel["kind"];
  readonly kind: Spec["kind"];
  /** How the selector is written, for the usage error. */
  readonly syntax: string;
  parse(selector: string): Sel | undefined;
  expand(selector: Sel, task: LoadedTask): Spec[];
  label(spec: Spec): string;
  harmful(spec: Spec): boolean;
  /**
   * Whether the agent proposes the same calls whenever it sees the same tool results (scripted
   * agents): its trials may then share the world states of earlier trials (harness/trial/states/world-states.ts).
   */
  readonly deterministic: boolean;
  create(spec: Spec, task: LoadedTask): Driver;
  /** Everything that decides what this agent does, as a JSON-like value (hashed into a trial's fingerprint). */
  identity(spec: Spec, task: LoadedTask): unknown;
}

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
 * Counts the tokens of a trial. The runner shows it every assistant message (and whether a call
 * of the trial was blocked before it) and reads the tally at the end; whether the numbers come
 * from the provider or from an estimate is the meter's business.
 */
export interface TokenMeter {
  observe(message: AssistantMessage, afterBlock?: boolean): void;
  readonly tally: TokenTally;
}

/** Where a recorded model's replay left its recording (drivers/cassette.ts): the trial is `diverged`. */
export interface Divergence {
  /** The turn (1-based: the n-th request of the trial) that has no recorded response. */
  turn: number;
  /** The tool call (1-based among the trial's calls) whose result differs from the recording, when one does. */
  call: number | null;
  /** That call's tool and a one-line summary of it. */
  tool?: string;
  /** One line: what differs, recorded against now. */
  detail: string;
}

export interface Driver {
  readonly name: string;
  readonly model: Model<any>;
  readonly streamFn: StreamFn;
  readonly meter: TokenMeter;
  readonly getApiKey?: (provider: string) => string | undefined;
  /** A replayed driver that met a request its recording has no response for. */
  readonly divergence?: () => Divergence | undefined;
}

/** The trial a driver plays (a recorder keys what it records by it; a replay looks it up). */
export interface TrialContext {
  trialId: string;
  gate: string;
  approver: string;
  attempt: number;
}

/** What a check before the run found about one --agents selector. */
export interface PreflightResult {
  /** Bad input, one line each (the run exits 2 before any trial). */
  problems: string[];
  /** Worth saying, not fatal (a server that does not list its models). */
  notices: string[];
}

/** One kind of driver. `Sel`: a parsed `--agents` selector; `Spec`: one agent of one task. */
export interface DriverSpec<Sel extends { kind: string }, Spec extends { kind: string }> {
  /** The `kind` of the selectors this entry parses and of the agents it expands to. */
  readonly selectorKind: Sel["kind"];
  readonly kind: Spec["kind"];
  /** How the selector is written, for the usage error (empty: not written in --agents). */
  readonly syntax: string;
  parse(selector: string): Sel | undefined;
  expand(selector: Sel, task: LoadedTask): Spec[];
  label(spec: Spec): string;
  /**
   * Whether the agent is labelled harmful (a persona's `harmful`), or null when it has no label
   * (a real model, a recording of one): its harm prevented is then measured against itself under
   * gate `none` on the same task and epoch, in summary.json's `agents` section, never in the
   * scripted headline.
   */
  harmful(spec: Spec): boolean | null;
  /**
   * Whether the agent proposes the same calls whenever it sees the same tool results (scripted
   * agents): its trials may then share the world states of earlier trials (harness/trial/states/world-states.ts).
   */
  readonly deterministic: boolean;
  /** Whether each trial is one sample of a stochastic model: its trials run --epochs times (default 3). */
  readonly sampled: boolean;
  create(spec: Spec, task: LoadedTask, trial: TrialContext): Driver;
  /** Everything that decides what this agent does, as a JSON-like value (hashed into a trial's fingerprint). */
  identity(spec: Spec, task: LoadedTask): unknown;
  /** Checks before any trial: is the provider known, the model known, the key present, the server reachable? */
  preflight?(selector: Sel, env: NodeJS.ProcessEnv): Promise<PreflightResult>;
}

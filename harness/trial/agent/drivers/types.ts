/**
 * The driver contract: what plays the agent in a trial. A driver is a pi-agent-core `streamFn`
 * over a model, plus a token meter. Every kind of driver is one registry entry (see index.ts)
 * that parses its `--agents` selector, expands it into the agents of a task, labels them,
 * creates the driver and says whether the agent is a harmful persona.
 */
import type { TrialLog } from "../../../model/record/trial-log.ts";
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

/**
 * What an agent product running as its own process gets from the trial (trial/process-agent.ts
 * implements it): a way to run in the trial's world as the agent, and a way to report each call
 * the product made and how it ended, so the harness measures it while the product waits.
 */
export interface ProcessAgentContext {
  instruction: string;
  /** The agent's time limit, in milliseconds. */
  timeoutMs: number;
  /** The trial's gate configuration's product settings (the product's own gate). */
  settings: ProductGateSettings;
  runInWorld(
    argv: string[],
    opts: {
      timeoutMs: number;
      readOnlyBinds: readonly { hostPath: string; sandboxPath: string }[];
      tmpfs: readonly string[];
      env: Readonly<Record<string, string>>;
    },
  ): Promise<{ exitCode: number | null; stdout: string; stderr: string; timedOut: boolean }>;
  /** A call the product made ended: `replay` is the same call in gatebench's tools (a refused call is replayed with it). */
  callEnded(
    call: { id: string; tool: string; args: Record<string, unknown> },
    outcome: "ok" | "blocked" | "error",
    replay: { tool: string; args: Record<string, unknown> },
  ): Promise<void>;
  /** A turn (one request of the product) was answered. */
  turn(): void;
  log: TrialLog;
}

/** The product's own gate, as a gate configuration gives it (gates/config.ts `product`). */
export interface ProductGateSettings {
  name: string;
  permissionMode: string;
  settings: Readonly<Record<string, unknown>>;
}

export interface ProcessAgentResult {
  timedOut: boolean;
  /** Tokens of the requests the product sent and the answers it got. */
  tokens: TokenTally;
  /** The product failed in a way that says nothing about the gate (it crashed, its endpoint failed). */
  error?: string | undefined;
}

/** An agent that is a program of its own, run in the trial's world instead of pi-agent-core's loop. */
export interface ProcessAgent {
  run(ctx: ProcessAgentContext): Promise<ProcessAgentResult>;
}

export interface Driver {
  readonly name: string;
  /**
   * Set for an agent product: the agent phase runs it as its own process (the product's own
   * permission system is the gate); `model` and `streamFn` are then not used.
   */
  readonly process?: ProcessAgent;
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
  /**
   * The agent product this kind runs, whose own settings are the gate (a product gate
   * configuration names the same product); absent: gatebench's own loop, whose gates are
   * gatebench's. A trial pairs them only when they agree.
   */
  readonly product?: string;
  /**
   * A product's least-guarded configuration (its own mode in which every call runs): the gate
   * its agents' trials are paired with for harm prevented and utility, as `none` is for
   * gatebench's loop. Set with `product`.
   */
  readonly baselineGate?: string;
  /** Checks before any trial: is the provider known, the model known, the key present, the server reachable? */
  preflight?(selector: Sel, env: NodeJS.ProcessEnv): Promise<PreflightResult>;
  /**
   * An agent that talks to a model over requests that can be kept: how its selector is recorded
   * (eval --record into a cassette, --record-personas into personas) and replayed (eval --replay:
   * the selector of the driver that plays the recording; bad input when the recording lacks it).
   * Absent: there is nothing to record.
   */
  readonly recording?: {
    record(selector: Sel, sink: { cassette: object } | { recordings: object }): Sel;
    replay(selector: Sel, cassette: object): { kind: string };
  };
  /** Whether the agent belongs to the default run's evasion sample (planned under the robustness user only). */
  robustnessSample?(spec: Spec): boolean;
}

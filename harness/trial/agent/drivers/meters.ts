/** The two token meters: what a provider reports, and an estimate for scripted drivers. */
import type { AssistantMessage, Context, Message } from "@mariozechner/pi-ai";
import { emptyTally, TokenMeter as TurnEstimator, type TokenTally } from "../tokens.ts";
import type { TokenMeter } from "./types.ts";

/** Sums the usage a real model reports on every assistant message. */
export class ProviderMeter implements TokenMeter {
  readonly tally: TokenTally = emptyTally("provider");
  observe(message: AssistantMessage): void {
    const u = message.usage;
    this.tally.input += u.input + u.cacheRead + u.cacheWrite;
    this.tally.output += u.output;
    this.tally.cached += u.cacheRead;
    this.tally.costUsd += u.cost.total;
  }
}

/**
 * Estimates usage turn by turn: the scripted driver calls `recordTurn` with what each turn would
 * send and what it answered; the messages the runner shows it carry no real usage.
 */
export class EstimatedMeter implements TokenMeter {
  private readonly estimator = new TurnEstimator();
  get tally(): TokenTally {
    return this.estimator.tally;
  }
  recordTurn(context: Context, reply: Message): { input: number; output: number; cached: number } {
    return this.estimator.recordTurn(context, reply);
  }
  observe(_message: AssistantMessage): void {}
}

/** The two token meters: what a provider reports, and an estimate for scripted drivers. */
import type { AssistantMessage, Context, Message } from "@mariozechner/pi-ai";
import { dollars, priceLabel, type PriceEntry } from "../prices.ts";
import { ESTIMATE_ENCODING, emptyTally, estimateTurnTokens, TokenMeter as TurnEstimator, type TokenTally } from "../tokens.ts";
import type { TokenMeter } from "./types.ts";

/**
 * Sums the usage a real model reports on every assistant message, priced from the repository's
 * price table (prices.yaml; no entry: the cost is null, unknown). A reply that carries no usage
 * at all (a server that does not report it) is estimated from the request it answered, which
 * the driver shows the meter (`request`), and the tally's source says so.
 */
export class ProviderMeter implements TokenMeter {
  readonly tally: TokenTally;
  private lastRequest: Context | undefined;
  private provider = false;
  private estimated = false;

  constructor(private readonly price?: PriceEntry) {
    this.tally = { ...emptyTally("provider"), costUsd: price ? 0 : null, price: priceLabel(price), afterBlock: 0 };
  }

  /** The request the next reply answers (for a reply without usage). */
  request(context: Context): void {
    this.lastRequest = context;
  }

  observe(message: AssistantMessage, afterBlock = false): void {
    const u = message.usage;
    let turn = { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite };
    if (u.input + u.output + u.cacheRead + u.cacheWrite > 0) this.provider = true;
    else if (this.lastRequest && message.stopReason !== "error" && message.stopReason !== "aborted") {
      const e = estimateTurnTokens(this.lastRequest, message);
      turn = { input: e.input, output: e.output, cacheRead: 0, cacheWrite: 0 };
      this.estimated = true;
    }
    this.tally.input += turn.input + turn.cacheRead + turn.cacheWrite;
    this.tally.output += turn.output;
    this.tally.cached += turn.cacheRead;
    if (afterBlock) this.tally.afterBlock = (this.tally.afterBlock ?? 0) + turn.input + turn.cacheRead + turn.cacheWrite + turn.output;
    if (this.price && this.tally.costUsd !== null) this.tally.costUsd += dollars(this.price, turn);
    this.tally.source = this.estimated ? (this.provider ? `provider+estimated:${ESTIMATE_ENCODING}` : `estimated:${ESTIMATE_ENCODING}`) : "provider";
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
  observe(_message: AssistantMessage, _afterBlock?: boolean): void {}
}

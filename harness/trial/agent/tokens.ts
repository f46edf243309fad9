/**
 * Token accounting. Real models report usage; scripted drivers estimate it by tokenising
 * exactly what each turn would send (system prompt, tool schemas, every message so far) with
 * a real BPE tokenizer, and price it with a reference model's registry prices.
 *
 * Cached tokens are estimated as a prompt cache would see them: the part of this request that
 * repeats the previous request of the same trial (its whole input, since turns only append).
 */
import { createHash } from "node:crypto";
import { getModel, type Context, type Message, type Model } from "@mariozechner/pi-ai";
import { Tiktoken } from "js-tiktoken/lite";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import { PRICE_REFERENCE } from "./price-reference.ts";

export const ESTIMATE_ENCODING = "o200k_base";

export { PRICE_REFERENCE } from "./price-reference.ts";

let encoder: Tiktoken | undefined;
function tokenizer(): Tiktoken {
  encoder ??= new Tiktoken(o200k_base);
  return encoder;
}

/**
 * BPE merging is quadratic in the length of one pre-tokenised word, and a minified file or a
 * run of zeros is one very long "word": runs longer than 256 characters are counted in
 * 64-character pieces, which changes the count by at most a token per piece and keeps a turn's
 * estimate fast. A run is matched only where it starts (not after another non-space character):
 * the same matches as a plain `\S{257,}`, without trying again at every character of a shorter run.
 */
const LONG_RUN = /(?<!\S)\S{257,}/g;
const PIECE = 64;

/** The count, computed every time (what `countTokens` remembers). */
export function countTokensUncached(text: string): number {
  let n = 0;
  let from = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    n += bpeCount(text.slice(from, m.index));
    for (let i = 0; i < m[0].length; i += PIECE) n += bpeCount(m[0].slice(i, i + PIECE));
    from = m.index + m[0].length;
  }
  return n + bpeCount(text.slice(from));
}

/**
 * `encode(text).length` of the tokenizer, without building the tokens: the text is split with the
 * encoding's own pattern, and each piece's count (one token when the piece is a token, else its
 * byte-pair merges, as the library merges them) is remembered by the piece. Requests repeat
 * the same words over and over; the library encodes and merges each of them again every time.
 * A text holding a special token goes to the library, which refuses it.
 */
function bpeCount(text: string): number {
  const t = bpeTables();
  if (t.special.test(text)) return tokenizer().encode(text).length;
  let n = 0;
  for (const m of text.matchAll(t.pattern)) {
    const piece = m[0];
    let c = pieceCounts.get(piece);
    if (c === undefined) {
      c = pieceCount(t.encoder.encode(piece), t.ranks);
      if (pieceCounts.size >= PIECES_MAX) pieceCounts.clear();
      pieceCounts.set(piece, c);
    }
    n += c;
  }
  return n;
}

const pieceCounts = new Map<string, number>();
const PIECES_MAX = 500_000;

interface BpeTables {
  pattern: RegExp;
  special: RegExp;
  /** byte values joined by "," -> rank: the library's own table (js-tiktoken's `rankMap`). */
  ranks: Map<string, number>;
  encoder: TextEncoder;
}
let tables: BpeTables | undefined;
function bpeTables(): BpeTables {
  if (tables) return tables;
  const ranks = (tokenizer() as unknown as { rankMap?: Map<string, number> }).rankMap;
  if (!(ranks instanceof Map) || ranks.size === 0) throw new Error("js-tiktoken has no rankMap: the token count needs its rank table");
  const escapeRe = (s: string) => s.replace(/[\\^$*+?.()|[\]{}]/g, "\\$&");
  tables = {
    pattern: new RegExp(o200k_base.pat_str, "gu"),
    special: new RegExp(Object.keys(o200k_base.special_tokens).map(escapeRe).join("|")),
    ranks,
    encoder: new TextEncoder(),
  };
  return tables;
}

/** How many tokens one piece's bytes make: js-tiktoken's bytePairEncode, counted. */
function pieceCount(bytes: Uint8Array, ranks: Map<string, number>): number {
  const rankOf = (start: number, end: number) => ranks.get(bytes.subarray(start, end).join(","));
  if (rankOf(0, bytes.length) !== undefined) return 1;
  // the library counts a one-byte piece as one token whatever its table says
  if (bytes.length === 1) return 1;
  // parts[i] is the start of part i; a part ends where the next begins
  const starts = Array.from({ length: bytes.length + 1 }, (_, i) => i);
  while (starts.length > 2) {
    let min: number | undefined;
    let at = -1;
    for (let i = 0; i < starts.length - 2; i++) {
      const rank = rankOf(starts[i]!, starts[i + 2]!);
      if (rank !== undefined && (min === undefined || rank < min)) {
        min = rank;
        at = i;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
  }
  let n = 0;
  for (let i = 0; i < starts.length - 1; i++) if (rankOf(starts[i]!, starts[i + 1]!) !== undefined) n += 1;
  return n;
}

/**
 * Counts already made, by the text's sha256, oldest first. The trials of one task under different
 * gates and users send the same requests until their paths part: a run counts each text once.
 */
const counted = new Map<string, number>();
const COUNTED_MAX = 50_000;
/** Shorter texts are counted again: hashing them costs about as much. */
const REMEMBER_FROM = 512;

export function countTokens(text: string): number {
  if (text.length < REMEMBER_FROM) return countTokensUncached(text);
  const key = createHash("sha256").update(text).digest("base64");
  const known = counted.get(key);
  if (known !== undefined) return known;
  const n = countTokensUncached(text);
  if (counted.size >= COUNTED_MAX) counted.delete(counted.keys().next().value!);
  counted.set(key, n);
  return n;
}

export interface TokenTally {
  input: number;
  output: number;
  cached: number;
  /** Dollars; null when the model has no price (prices.yaml does not list it): unknown, never 0. */
  costUsd: number | null;
  /**
   * "provider" when reported by a real model, "estimated:<encoding>" when estimated, and
   * "provider+estimated:<encoding>" when a real model reported usage on some turns only.
   */
  source: string;
  /** How a real model's cost was priced (prices.ts priceLabel); absent for scripted agents (the reference model's price). */
  price?: string;
  /** A real model's input + output tokens of the turns after the trial's first block; absent for scripted agents. */
  afterBlock?: number;
}

export const emptyTally = (source: string): TokenTally => ({ input: 0, output: 0, cached: 0, costUsd: 0, source });

/** The text a provider would receive for this context, in a stable serialisation. */
export function serializeRequest(context: Context): string {
  const tools = (context.tools ?? []).map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  return JSON.stringify({ system: context.systemPrompt ?? "", tools, messages: context.messages.map(serializeMessage) });
}

function serializeMessage(m: Message): unknown {
  if (m.role === "user") return { role: "user", content: m.content };
  if (m.role === "assistant")
    return { role: "assistant", content: m.content.map((c) => (c.type === "toolCall" ? { type: "tool_use", id: c.id, name: c.name, input: c.arguments } : c)) };
  return { role: "user", content: [{ type: "tool_result", tool_use_id: m.toolCallId, is_error: m.isError, content: m.content }] };
}

/** Input and output tokens of one turn, estimated: what the request would send and what the reply holds. */
export function estimateTurnTokens(context: Context, reply: Message): { input: number; output: number } {
  return { input: countTokens(serializeRequest(context)), output: countTokens(JSON.stringify(serializeMessage(reply))) };
}

export function priceModel(): Model<any> {
  return getModel(PRICE_REFERENCE.provider, PRICE_REFERENCE.model);
}

export function priceUsd(model: Model<any>, input: number, output: number, cached: number): number {
  const c = model.cost;
  return ((input - cached) * c.input + cached * c.cacheRead + output * c.output) / 1_000_000;
}

/** Estimates usage turn by turn for a scripted driver. */
export class TokenMeter {
  readonly tally: TokenTally = emptyTally(`estimated:${ESTIMATE_ENCODING}`);
  private previousInput = 0;
  private readonly model = priceModel();

  /** Record one turn: the request that would be sent and the assistant message produced. */
  recordTurn(context: Context, reply: Message): { input: number; output: number; cached: number } {
    return this.recordSerialized(serializeRequest(context), JSON.stringify(serializeMessage(reply)));
  }

  /** Record one turn from the request's and the reply's text as sent (an agent product's requests). */
  recordSerialized(request: string, reply: string): { input: number; output: number; cached: number } {
    const input = countTokens(request);
    const output = countTokens(reply);
    const cached = Math.min(this.previousInput, input);
    this.previousInput = input + output;
    this.tally.input += input;
    this.tally.output += output;
    this.tally.cached += cached;
    this.tally.costUsd = (this.tally.costUsd ?? 0) + priceUsd(this.model, input, output, cached);
    return { input, output, cached };
  }
}

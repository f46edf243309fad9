/**
 * Token accounting (harness/trial/agent/tokens.ts): a real BPE count, and the TokenMeter's cached
 * tokens and cost with the reference model's prices.
 */
import type { AssistantMessage, Context, Message, Tool } from "@mariozechner/pi-ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Tiktoken } from "js-tiktoken/lite";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import {
  countTokens,
  countTokensUncached,
  ESTIMATE_ENCODING,
  PRICE_REFERENCE,
  priceModel,
  priceUsd,
  serializeRequest,
  TokenMeter,
} from "../../../../../harness/trial/agent/tokens.ts";

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content: AssistantMessage["content"]): AssistantMessage => ({
  role: "assistant",
  content,
  api: "gatebench-scripted",
  provider: "gatebench",
  model: "scripted",
  usage,
  stopReason: content.some((c) => c.type === "toolCall") ? "toolUse" : "stop",
  timestamp: 0,
});
const TOOLS: Tool[] = [
  {
    name: "bash",
    description: "Run a bash command in the workspace.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } as never,
  },
];

describe("countTokens", () => {
  it("is a real o200k_base BPE count", () => {
    expect(ESTIMATE_ENCODING).toBe("o200k_base");
    expect(countTokens("")).toBe(0);
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("hello")).toBe(1);
  });

  it("merges repeated text far below one token per character", () => {
    const s = "hello ".repeat(200);
    const n = countTokens(s);
    expect(n).toBeGreaterThanOrEqual(200);
    expect(n).toBeLessThan(s.length / 4);
    expect(countTokens("-".repeat(400))).toBeLessThan(400 / 4);
  });

  it("counts non-ASCII text and grows with the text", () => {
    expect(countTokens("删除 build/cache 目录")).toBeGreaterThan(2);
    expect(countTokens("rm -rf /tmp/cache && ls")).toBeLessThan(countTokens("rm -rf /tmp/cache && ls && rm -rf /tmp/other-cache"));
  });
});

/** The count as first written: long runs found by a plain \S{257,}, every text counted afresh. */
const reference = (() => {
  const enc = new Tiktoken(o200k_base);
  return (text: string): number => {
    let n = 0;
    let from = 0;
    for (const m of text.matchAll(/\S{257,}/g)) {
      n += enc.encode(text.slice(from, m.index)).length;
      for (let i = 0; i < m[0].length; i += 64) n += enc.encode(m[0].slice(i, i + 64)).length;
      from = m.index + m[0].length;
    }
    return n + enc.encode(text.slice(from)).length;
  };
})();

/** Text made of words, spaces, newlines and runs without spaces around the 256-character limit. */
const texty = fc
  .array(
    fc.oneof(
      fc.constantFrom(" ", "\n", "  ", '{"role":"user"}', "rm -rf ~/", "é"),
      fc.string({ maxLength: 12 }),
      fc.integer({ min: 200, max: 700 }).map((n) => "x".repeat(n)),
      fc.integer({ min: 250, max: 270 }).chain((n) => fc.string({ minLength: n, maxLength: n, unit: fc.constantFrom("a", "0", "/", '"', ":") })),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

describe("countTokens counts what the first version counted", () => {
  it("on any text: long runs split the same way, remembered or not", () => {
    fc.assert(
      fc.property(texty, (t) => {
        const want = reference(t);
        expect(countTokensUncached(t)).toBe(want);
        expect(countTokens(t)).toBe(want);
        expect(countTokens(t)).toBe(want); // the second time from memory
      }),
      { numRuns: 150 },
    );
  });

  it("on any unicode text: the encoding's own pieces and byte-pair merges, counted per piece", () => {
    const unit = fc.oneof(
      fc.constantFrom(
        " ",
        "  ",
        "\n",
        "\r\n",
        "\t",
        " \n ",
        "'s",
        "'LL",
        "'re",
        "123456",
        "3.14",
        "ÉCOLE",
        "naïve",
        "日本語",
        "🙂👍🏽",
        "\u0301",
        "a/b/c//",
        "?!",
        "{}\n",
      ),
      fc.string({ maxLength: 8, unit: "grapheme" }),
      fc.string({ maxLength: 8, unit: "binary" }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), (parts) => {
        const t = parts.join("");
        expect(countTokensUncached(t)).toBe(reference(t));
      }),
      { numRuns: 400 },
    );
  });

  it("on requests as the scripted drivers send them", () => {
    const tools = [{ name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } } } }];
    const messages = [
      { role: "user", content: "Clean up the tmp folder, but keep anything I'm still using.", timestamp: 0 },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "find /workspace/tmp -mtime +7 -print0 | xargs -0 rm -f" } }],
      },
      {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "bash",
        isError: true,
        content: [{ type: "text", text: "Blocked by gate: rm -rf ~/ would delete 1,024 files\n\tretry? [y/N]" }],
      },
    ] as unknown as Context["messages"];
    const text = serializeRequest({ systemPrompt: "You are a careful coding agent.\n\nRules:\n- never force-push", tools, messages } as unknown as Context);
    expect(countTokensUncached(text)).toBe(reference(text));
  });

  it("refuses a special token as the library does", () => {
    expect(() => reference("text <|endoftext|> more")).toThrow();
    expect(() => countTokensUncached("text <|endoftext|> more")).toThrow();
    expect(countTokensUncached("text <|endoftext| > more")).toBe(reference("text <|endoftext| > more"));
  });

  it("keeps texts of the same length apart", () => {
    const a = `${"a ".repeat(400)}end`;
    const b = `${"ab".repeat(400)}end`;
    expect(a.length).toBe(b.length);
    expect(countTokens(a)).toBe(reference(a));
    expect(countTokens(b)).toBe(reference(b));
    expect(countTokens(a)).not.toBe(countTokens(b));
  });
});

describe("prices", () => {
  it("uses claude-sonnet-4-5 registry prices: $3 in, $15 out, $0.30 cache read per Mtok", () => {
    expect(PRICE_REFERENCE).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5" });
    const m = priceModel();
    expect(m.cost.input).toBe(3);
    expect(m.cost.output).toBe(15);
    expect(m.cost.cacheRead).toBe(0.3);
  });

  it("priceUsd charges uncached input, cached input and output separately", () => {
    const m = priceModel();
    expect(priceUsd(m, 1_000_000, 0, 0)).toBeCloseTo(3, 10);
    expect(priceUsd(m, 0, 1_000_000, 0)).toBeCloseTo(15, 10);
    expect(priceUsd(m, 1_000_000, 0, 1_000_000)).toBeCloseTo(0.3, 10);
    // a 2-turn trial: (1000 in, 100 out), then (1500 in of which 1100 cached, 50 out)
    const total = priceUsd(m, 1000, 100, 0) + priceUsd(m, 1500, 50, 1100);
    expect(total).toBeCloseTo((1000 * 3 + 100 * 15 + 400 * 3 + 1100 * 0.3 + 50 * 15) / 1e6, 12);
    expect(total).toBeCloseTo(0.00678, 12);
  });
});

describe("serializeRequest", () => {
  it("includes the system prompt, the tool schemas and every message", () => {
    const base: Context = { systemPrompt: "", messages: [{ role: "user", content: "hi", timestamp: 0 }] };
    const withSystem = { ...base, systemPrompt: "You are a careful coding agent working in /workspace." };
    const withTools = { ...withSystem, tools: TOOLS };
    const n0 = countTokens(serializeRequest(base));
    const n1 = countTokens(serializeRequest(withSystem));
    const n2 = countTokens(serializeRequest(withTools));
    expect(n1).toBeGreaterThan(n0);
    expect(n2).toBeGreaterThan(n1);
    const text = serializeRequest(withTools);
    expect(text).toContain("careful coding agent");
    expect(text).toContain("Run a bash command");
    expect(text).toContain('"required":["command"]');
  });
});

describe("TokenMeter", () => {
  it("2-turn example: cached = previous request's input + output; cost with sonnet-4.5 prices", () => {
    const system = "You are a coding agent. Work only inside /workspace.";
    const user: Message = { role: "user", content: "Please clean up the build cache in /tmp/cache.", timestamp: 0 };
    const reply1 = assistant([
      { type: "text", text: "Deleting the cache." },
      { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "rm -rf /tmp/cache" } },
    ]);
    const result: Message = {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "bash",
      content: [{ type: "text", text: "(no output)" }],
      isError: false,
      timestamp: 0,
    };
    const reply2 = assistant([{ type: "text", text: "The cache in /tmp/cache has been removed." }]);

    const ctx1: Context = { systemPrompt: system, tools: TOOLS, messages: [user] };
    const ctx2: Context = { systemPrompt: system, tools: TOOLS, messages: [user, reply1, result] };

    const meter = new TokenMeter();
    const t1 = meter.recordTurn(ctx1, reply1);
    const t2 = meter.recordTurn(ctx2, reply2);

    expect(t1.input).toBe(countTokens(serializeRequest(ctx1)));
    expect(t2.input).toBe(countTokens(serializeRequest(ctx2)));
    expect(t1.cached).toBe(0);
    // the second request repeats the first request and the first reply
    expect(t2.input).toBeGreaterThan(t1.input + t1.output);
    expect(t2.cached).toBe(t1.input + t1.output);
    // output counts what the reply carries: its text and its tool call
    expect(t1.output).toBeGreaterThanOrEqual(countTokens("Deleting the cache.") + countTokens("rm -rf /tmp/cache"));
    expect(t2.output).toBeGreaterThanOrEqual(countTokens("The cache in /tmp/cache has been removed."));

    expect(meter.tally.input).toBe(t1.input + t2.input);
    expect(meter.tally.output).toBe(t1.output + t2.output);
    expect(meter.tally.cached).toBe(t2.cached);
    expect(meter.tally.source).toBe("estimated:o200k_base");
    const expected = (t1.input * 3 + t1.output * 15 + (t2.input - t2.cached) * 3 + t2.cached * 0.3 + t2.output * 15) / 1e6;
    expect(meter.tally.costUsd).toBeCloseTo(expected, 12);
    // caching makes the trial cheaper than paying full price for every input token
    const uncached = ((t1.input + t2.input) * 3 + (t1.output + t2.output) * 15) / 1e6;
    expect(meter.tally.costUsd).toBeLessThan(uncached);
  });

  it("never counts more cached tokens than the request has", () => {
    const meter = new TokenMeter();
    const big: Context = { systemPrompt: "x ".repeat(500), messages: [{ role: "user", content: "go", timestamp: 0 }] };
    const small: Context = { systemPrompt: "", messages: [{ role: "user", content: "go", timestamp: 0 }] };
    meter.recordTurn(big, assistant([{ type: "text", text: "ok" }]));
    const t = meter.recordTurn(small, assistant([{ type: "text", text: "ok" }]));
    expect(t.cached).toBe(t.input);
  });

  it("separate meters (trials) do not share the cache", () => {
    const ctx: Context = { systemPrompt: "s", messages: [{ role: "user", content: "go", timestamp: 0 }] };
    const reply = assistant([{ type: "text", text: "ok" }]);
    new TokenMeter().recordTurn(ctx, reply);
    expect(new TokenMeter().recordTurn(ctx, reply).cached).toBe(0);
  });
});

describe("countTokens cost on long unbroken text", () => {
  // BUG (harness/trial/agent/tokens.ts countTokens): js-tiktoken's BPE merge is quadratic in the
  // length of one pre-tokenised piece. Measured here: "a"×1000 0.6 s, ×4000 5.7 s, ×16000 70 s
  // (prose of 16 000 chars: 34 ms). The meter re-counts every message each turn, synchronously,
  // so a tool result or write with one long unbroken run (minified JS, a dd/hexdump line,
  // "0"×100k) blocks the event loop and no trial timeout can fire. Expected: linear-ish cost,
  // e.g. by counting long pieces in bounded chunks (the estimate moves by a few tokens at most).
  // No stopwatch (a loaded machine is slow): the input is sized so that the quadratic merge
  // takes about half an hour (25 x the 16 000-character figure above) and a linear count
  // milliseconds, and the test's own timeout (300 s) is the bound (vitest fails a synchronous
  // test that outlasts it).
  it("an 80 000-character run without spaces is counted within the test's timeout", () => {
    const n = countTokens("a".repeat(80_000));
    expect(n).toBeGreaterThan(80_000 / 16);
    expect(n).toBeLessThanOrEqual(80_000);
  });
});

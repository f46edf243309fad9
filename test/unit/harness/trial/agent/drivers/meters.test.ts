/**
 * The provider meter (harness/trial/agent/drivers/meters.ts): usage as the provider reports it,
 * priced from prices.yaml (null when the model is not listed), a reply without usage estimated
 * and labelled so, and the tokens of the turns after the first block counted apart.
 */
import type { AssistantMessage, Context } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { ProviderMeter } from "../../../../../../harness/trial/agent/drivers/meters.ts";
import { priceOf } from "../../../../../../harness/trial/agent/prices.ts";

function reply(usage: Partial<AssistantMessage["usage"]>, text = "done"): AssistantMessage {
  const u = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    ...usage,
  };
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "openai-completions",
    provider: "x",
    model: "m",
    usage: u,
    stopReason: "stop",
    timestamp: 0,
  };
}
const context: Context = { systemPrompt: "You are a coding agent.", messages: [{ role: "user", content: "clean up /tmp please", timestamp: 0 }] };

describe("ProviderMeter", () => {
  it("sums provider usage and prices it from the table", () => {
    const m = new ProviderMeter(priceOf("anthropic/claude-sonnet-4-5"));
    m.observe(reply({ input: 1000, output: 100, cacheRead: 2000, cacheWrite: 500, totalTokens: 3600 }));
    expect(m.tally).toMatchObject({
      input: 3500,
      output: 100,
      cached: 2000,
      source: "provider",
      price: "anthropic/claude-sonnet-4-5 (prices.yaml, 2026-12-06)",
    });
    expect(m.tally.costUsd).toBeCloseTo((1000 * 3 + 100 * 15 + 2000 * 0.3 + 500 * 3.75) / 1e6, 12);
  });

  it("an unlisted model's cost is null, never 0", () => {
    const m = new ProviderMeter(undefined);
    m.observe(reply({ input: 10, output: 1, totalTokens: 11 }));
    expect(m.tally.costUsd).toBeNull();
    expect(m.tally.price).toBe("unknown");
  });

  it("a reply without usage is estimated from its request, and the source says so", () => {
    const m = new ProviderMeter(undefined);
    m.request(context);
    m.observe(reply({}));
    expect(m.tally.input).toBeGreaterThan(0);
    expect(m.tally.output).toBeGreaterThan(0);
    expect(m.tally.source).toBe("estimated:o200k_base");
    m.observe(reply({ input: 5, output: 5, totalTokens: 10 }));
    expect(m.tally.source).toBe("provider+estimated:o200k_base");
  });

  it("counts the tokens of the turns after the first block apart", () => {
    const m = new ProviderMeter(undefined);
    m.observe(reply({ input: 100, output: 10, totalTokens: 110 }), false);
    m.observe(reply({ input: 200, output: 20, cacheRead: 100, totalTokens: 320 }), true);
    expect(m.tally.afterBlock).toBe(320);
  });
});

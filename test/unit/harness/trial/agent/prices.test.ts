/**
 * The price table of real models (harness/trial/agent/prices.yaml): valid against its schema,
 * in agreement with the registry of the pinned pi-ai it was taken from, a malformed table is bad
 * input naming the field, an unlisted model has no price (never 0).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getModel } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { dollars, priceLabel, priceOf, priceTable } from "../../../../../harness/trial/agent/prices.ts";
import { InputError } from "../../../../../kernel/errors.ts";

describe("prices.yaml", () => {
  it("is valid, lists each model once, with a date and a source page", () => {
    const t = priceTable();
    expect(t.models.length).toBeGreaterThan(5);
    expect(new Set(t.models.map((m) => m.model)).size).toBe(t.models.length);
    for (const m of t.models) {
      expect(m.date, m.model).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(m.source, m.model).toMatch(/^https:\/\//);
    }
  });

  it("agrees with the registry of the pi-ai version in package-lock.json, which it was taken from", () => {
    for (const m of priceTable().models) {
      const [provider, id] = [m.model.slice(0, m.model.indexOf("/")), m.model.slice(m.model.indexOf("/") + 1)];
      const reg = getModel(provider as never, id as never) as { cost: { input: number; output: number; cacheRead: number; cacheWrite: number } } | undefined;
      expect(reg, m.model).toBeDefined();
      expect([m.input, m.output, m.cache_read, m.cache_write], m.model).toEqual([reg!.cost.input, reg!.cost.output, reg!.cost.cacheRead, reg!.cost.cacheWrite]);
    }
  });

  it("prices usage per million tokens; an unlisted model has no price", () => {
    const sonnet = priceOf("anthropic/claude-sonnet-4-5")!;
    expect(dollars(sonnet, { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 0 })).toBeCloseTo(3 + 1.5 + 0.6, 9);
    expect(priceLabel(sonnet)).toBe("anthropic/claude-sonnet-4-5 (prices.yaml, 2026-12-06)");
    expect(priceOf("openai-compatible/mock/careless-cleanup")).toBeUndefined();
    expect(priceLabel(undefined)).toBe("unknown");
  });

  it("a malformed table is bad input naming the file and the field", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-prices-"));
    const file = join(dir, "prices.yaml");
    writeFileSync(
      file,
      "version: 1\ncurrency: USD\nunit: per million tokens\nmodels:\n  - { model: a/b, input: -1, output: 1, cache_read: 0, cache_write: 0, date: 2026-01-01, source: https://x.example }\n",
    );
    expect(() => priceTable(file)).toThrow(InputError);
    expect(() => priceTable(file)).toThrow(/models\.0\.input/);
  });
});

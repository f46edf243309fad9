/**
 * The dollar prices of real models (prices.yaml beside this file): one entry per model as
 * --agents names it, per million tokens, with the day it was taken and the provider's page.
 * The file is validated against PriceTableSchema when it is read; a malformed table is bad input
 * naming the file and the field (exit 2). A model the table does not list has no price: its
 * cost is null ("unknown"), never 0. Scripted agents are priced with the reference model
 * (tokens.ts), not with this table.
 */
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { readYamlFile } from "../../../kernel/yaml.ts";

export const PRICE_TABLE_FILE = fileURLToPath(new URL("./prices.yaml", import.meta.url));

const perMillion = z.number().nonnegative();

export const PriceEntrySchema = z.strictObject({
  /** `<provider>/<model>`, exactly as --agents names it. */
  model: z.string().regex(/^[\w.-]+\/.+$/, "<provider>/<model>, as --agents names it"),
  input: perMillion,
  output: perMillion,
  cache_read: perMillion,
  cache_write: perMillion,
  /** The day the price was taken (YAML reads an unquoted date as a Date). */
  date: z
    .union([z.date(), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD")])
    .transform((d) => (d instanceof Date ? d.toISOString().slice(0, 10) : d)),
  source: z.string().url(),
});

export const PriceTableSchema = z
  .strictObject({
    version: z.literal(1),
    currency: z.literal("USD"),
    unit: z.literal("per million tokens"),
    models: z.array(PriceEntrySchema),
  })
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    t.models.forEach((m, i) => {
      if (seen.has(m.model)) ctx.addIssue({ code: "custom", path: ["models", i, "model"], message: `${m.model} is listed twice` });
      seen.add(m.model);
    });
  });

export type PriceEntry = z.infer<typeof PriceEntrySchema>;
export type PriceTable = z.infer<typeof PriceTableSchema>;

let table: PriceTable | undefined;

/** The repository's price table, read and validated once. */
export function priceTable(file = PRICE_TABLE_FILE): PriceTable {
  if (file !== PRICE_TABLE_FILE) return readYamlFile(file, PriceTableSchema);
  table ??= readYamlFile(file, PriceTableSchema);
  return table;
}

/** The price of `<provider>/<model>`, or undefined when the table does not list it. */
export function priceOf(model: string, t: PriceTable = priceTable()): PriceEntry | undefined {
  return t.models.find((m) => m.model === model);
}

/** How a cost was priced, for the record: `<model> (prices.yaml, <date>)`, or "unknown". */
export function priceLabel(entry: PriceEntry | undefined): string {
  return entry ? `${entry.model} (prices.yaml, ${entry.date})` : "unknown";
}

/** Dollars for one reply's usage (uncached input, output, cache reads and writes, in tokens). */
export function dollars(entry: PriceEntry, u: { input: number; output: number; cacheRead: number; cacheWrite: number }): number {
  return (u.input * entry.input + u.output * entry.output + u.cacheRead * entry.cache_read + u.cacheWrite * entry.cache_write) / 1_000_000;
}

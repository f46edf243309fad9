/**
 * The reference model whose registry prices turn the scripted agents' estimated tokens into
 * dollars (tokens.ts): a figure of what the same conversation would cost with that model, never
 * what the run cost. Its own module so the reports can name it without loading a provider.
 */
export const PRICE_REFERENCE = { provider: "anthropic", model: "claude-sonnet-4-5" } as const;

/** `anthropic/claude-sonnet-4-5`: how summary.json's `meta.price_reference` and the tables name it. */
export const PRICE_REFERENCE_LABEL = `${PRICE_REFERENCE.provider}/${PRICE_REFERENCE.model}`;

/** TOML written for a product's configuration: Codex's `-c key=value` overrides, Gemini CLI's policy file. */

/** A key, bare when TOML allows it, else quoted. */
export const tomlKey = (k: string): string => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

/**
 * A value as TOML: a string, a finite number, a boolean, an array of them, and with `tables` an
 * inline table; anything else throws `unsupported(value)`.
 */
export function tomlValue(v: unknown, opts: { tables: boolean; unsupported: (v: unknown) => string }): string {
  if (typeof v === "string") return JSON.stringify(v);
  if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => tomlValue(x, opts)).join(", ")}]`;
  if (opts.tables && v && typeof v === "object")
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x, opts)}`)
      .join(", ")} }`;
  throw new Error(opts.unsupported(v));
}

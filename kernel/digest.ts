/**
 * A content digest of a JSON-like value that does not depend on the order of object keys: the
 * same arguments, options or records always give the same key (sha256, hex).
 */
import { createHash } from "node:crypto";

/** `JSON.stringify` with object keys in sorted order. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

export function digest(v: unknown): string {
  return createHash("sha256").update(stableJson(v)).digest("hex");
}

/**
 * A deep copy of a tool call's arguments, as `structuredClone` makes it. Arguments are JSON (a
 * model's tool call): plain objects, arrays without holes, strings, numbers, booleans and null
 * are copied directly, several times faster than the structured-clone serializer, which a gate
 * pays on every call. Anything else anywhere in the value (a class instance, a Map, a Date, an
 * object without a prototype, a hole, a symbol key) sends the whole value to `structuredClone`,
 * so the result is always what it would have made.
 */
export function cloneArgs<T>(value: T): T {
  const copied = copyJson(value, 0);
  return copied === NOT_JSON ? structuredClone(value) : (copied as T);
}

const NOT_JSON: unique symbol = Symbol("not plain JSON");
/** Deeper than this is left to structuredClone (which also handles cycles). */
const MAX_DEPTH = 64;

function copyJson(v: unknown, depth: number): unknown {
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (typeof v !== "object" || depth > MAX_DEPTH) return NOT_JSON;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return NOT_JSON;
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) return NOT_JSON;
      const c = copyJson(v[i], depth + 1);
      if (c === NOT_JSON) return NOT_JSON;
      out[i] = c;
    }
    // Own properties beyond the indices (arr.extra = 1) are copied by structuredClone too.
    return Object.keys(v).length === v.length ? out : NOT_JSON;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype || Object.getOwnPropertySymbols(v).length > 0) return NOT_JSON;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    if (k === "__proto__") return NOT_JSON; // an own property of that name: out[k] = ... would set the prototype
    const d = Object.getOwnPropertyDescriptor(v, k)!;
    if (!("value" in d)) return NOT_JSON; // a getter: structuredClone reads it
    const c = copyJson(d.value, depth + 1);
    if (c === NOT_JSON) return NOT_JSON;
    out[k] = c;
  }
  return out;
}

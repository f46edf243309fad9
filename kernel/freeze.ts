/** Freeze a value and everything reachable from it, so no layer can change what the next one sees. */
export function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object") {
    for (const inner of Object.values(v as object)) deepFreeze(inner);
    Object.freeze(v);
  }
  return v;
}

/** The median of a sample (NaN when empty); the upper middle value of an even sample. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/** The middle item by `key` (the lower of the two middle ones of an even list); undefined when empty. */
export function lowerMiddle<T>(xs: readonly T[], key: (x: T) => number): T | undefined {
  const s = [...xs].sort((a, b) => key(a) - key(b));
  return s[Math.floor((s.length - 1) / 2)];
}

/** `x` rounded to `digits` decimals; null for a missing or non-finite number. */
export function round(x: number | null | undefined, digits = 1): number | null {
  if (x === null || x === undefined || !Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** a / b, or null when either is missing or b is not a positive number. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b <= 0) return null;
  return a / b;
}

/** The 95% Wilson score interval of a proportion, and rounding for rates. Pure. */

export type Interval = [lo: number, hi: number];

const Z95 = 1.959963984540054;

export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** 95% Wilson score interval for `successes` out of `n` (fractional counts allowed); null when n = 0. */
export function wilson(successes: number, n: number, z = Z95): Interval | null {
  if (!(n > 0)) return null;
  const p = Math.min(1, Math.max(0, successes / n));
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [round(Math.max(0, centre - half), 4), round(Math.min(1, centre + half), 4)];
}

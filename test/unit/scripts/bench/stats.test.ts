import { describe, expect, it } from "vitest";
import { lowerMiddle, median, ratio, round } from "../../../../scripts/bench/stats.ts";

describe("median", () => {
  it("is the middle of an odd sample and the upper middle of an even one, whatever the order", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([7])).toBe(7);
  });
  it("is NaN for an empty sample and leaves its input alone", () => {
    expect(median([])).toBeNaN();
    const xs = [3, 1, 2];
    median(xs);
    expect(xs).toEqual([3, 1, 2]);
  });
});

describe("lowerMiddle", () => {
  it("is the middle item by its key, the lower middle of an even list, whatever the order", () => {
    const byX = (p: { x: number }) => p.x;
    expect(lowerMiddle([{ x: 5 }, { x: 1 }, { x: 3 }], byX)).toEqual({ x: 3 });
    expect(lowerMiddle([{ x: 4 }, { x: 1 }, { x: 3 }, { x: 2 }], byX)).toEqual({ x: 2 });
    expect(lowerMiddle([], byX)).toBeUndefined();
  });
});

describe("round", () => {
  it("rounds to the given decimals", () => {
    expect(round(1.2345, 2)).toBe(1.23);
    expect(round(1.25, 1)).toBe(1.3);
    expect(round(1234.5, 0)).toBe(1235);
  });
  it("is null for a missing or non-finite number", () => {
    expect(round(null)).toBeNull();
    expect(round(undefined)).toBeNull();
    expect(round(Number.NaN)).toBeNull();
    expect(round(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe("ratio", () => {
  it("divides", () => {
    expect(ratio(6, 3)).toBe(2);
  });
  it("is null when a side is missing or the divisor is not positive", () => {
    expect(ratio(1, 0)).toBeNull();
    expect(ratio(1, -2)).toBeNull();
    expect(ratio(null, 2)).toBeNull();
    expect(ratio(2, undefined)).toBeNull();
    expect(ratio(Number.NaN, 2)).toBeNull();
  });
});

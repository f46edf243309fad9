import { afterEach, describe, expect, it, vi } from "vitest";
import { sampleRss } from "../../../../scripts/bench/rss.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("sampleRss", () => {
  it("keeps the peak of the samples taken at start, on every tick and at stop", () => {
    vi.useFakeTimers();
    const readings = [100, 300, 200, 150];
    let i = 0;
    const read = vi.fn(() => readings[Math.min(i++, readings.length - 1)]!);
    const s = sampleRss(50, read);
    vi.advanceTimersByTime(100); // two ticks: 300, 200
    expect(s.stop()).toBe(300);
    expect(read).toHaveBeenCalledTimes(4);
  });
  it("stops sampling at stop", () => {
    vi.useFakeTimers();
    const read = vi.fn(() => 1);
    const s = sampleRss(50, read);
    s.stop();
    vi.advanceTimersByTime(500);
    expect(read).toHaveBeenCalledTimes(2);
  });
});

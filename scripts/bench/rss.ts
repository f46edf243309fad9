/** Peak resident set size of this process while something runs, sampled on a timer. */

export interface RssSampler {
  /** Stops sampling; the peak in bytes over every sample taken (at least one, at stop). */
  stop(): number;
}

/** Samples `read()` every `everyMs` from now until stop(); one sample at start and one at stop. */
export function sampleRss(everyMs = 50, read: () => number = () => process.memoryUsage.rss()): RssSampler {
  let peak = read();
  const timer = setInterval(() => {
    peak = Math.max(peak, read());
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, read());
      return peak;
    },
  };
}

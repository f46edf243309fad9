/**
 * Does the runner's cache change any record? The same trials run with `cache: false` (every
 * trial in its own world) are compared with those of a cached run field by field, as
 * `npm run compare-records` does (timings and the run id aside).
 */
import type { TrialRecord } from "../../harness/model/record/record.ts";
import { compareRuns } from "../compare-records.ts";

export interface CacheComparison {
  trials: number;
  equal: boolean;
  /** compare-records' difference lines (at most `limit`). */
  differences: string[];
  difference_count: number;
}

const asRuns = (records: readonly TrialRecord[]) =>
  new Map(records.map((r) => [r.trial_id, JSON.parse(JSON.stringify(r)) as Record<string, unknown> & { trial_id: string }]));

export function compareCacheRuns(withCache: readonly TrialRecord[], withoutCache: readonly TrialRecord[], limit = 20): CacheComparison {
  const diffs = compareRuns(asRuns(withCache), asRuns(withoutCache));
  return {
    trials: Math.max(withCache.length, withoutCache.length),
    equal: diffs.length === 0,
    differences: diffs.slice(0, limit),
    difference_count: diffs.length,
  };
}

/**
 * Shard merging (harness/run/report/merge.ts): every shard of one fingerprint present and complete,
 * records de-duplicated by trial id, clear errors naming the file and field otherwise.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../../../kernel/errors.ts";
import { checkShards, loadShard, mergedMeta, mergeRecords } from "../../../../../harness/run/report/merge.ts";
import type { TrialRecord } from "../../../../../harness/model/record/record.ts";
import { trialRecord } from "../../../../support/report-fixtures.ts";

function shardDir(shard: string | undefined, records: TrialRecord[], extra: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-shard-"));
  mkdirSync(join(dir, "trials"));
  const meta = { fingerprint: "fp1", ...(shard ? { shard, shard_trials: records.length } : {}), wall_ms: 10, ...extra };
  writeFileSync(join(dir, "summary.json"), JSON.stringify({ run_id: "x", meta, rows: [] }));
  writeFileSync(join(dir, "results.jsonl"), records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  return dir;
}

const rec = (id: string) => trialRecord({ trial_id: id, run_id: `run-${id}` });

describe("checkShards", () => {
  it("accepts all shards of one fingerprint, in any order", () => {
    expect(() => checkShards([loadShard(shardDir("2/2", [rec("b")])), loadShard(shardDir("1/2", [rec("a")]))])).not.toThrow();
    expect(() => checkShards([loadShard(shardDir(undefined, [rec("a")]))])).not.toThrow();
  });

  it("a missing shard is bad input naming it", () => {
    const err = (() => {
      try {
        checkShards([loadShard(shardDir("1/3", [rec("a")])), loadShard(shardDir("3/3", [rec("c")]))]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect(String((err as Error).message)).toMatch(/missing 2\/3/);
  });

  it("a shard of another matrix, of another shard count, or unfinished is bad input naming its file", () => {
    const one = loadShard(shardDir("1/2", [rec("a")]));
    const other = shardDir("2/2", [rec("b")], { fingerprint: "fp2" });
    expect(() => checkShards([one, loadShard(other)])).toThrow(new RegExp(`${other}/summary.json: meta.fingerprint: "fp1"`));
    expect(() => checkShards([one, loadShard(shardDir("2/3", [rec("b")]))])).toThrow(/meta.shard: a shard of 2/);
    const short = shardDir("2/2", [rec("b")], { shard_trials: 3 });
    expect(() => checkShards([one, loadShard(short)])).toThrow(/results.jsonl: \(trials\): all 3 trials of shard 2\/2, found 1/);
  });

  it("a folder without a summary, or a summary without a fingerprint, is bad input", () => {
    expect(() => loadShard(mkdtempSync(join(tmpdir(), "gatebench-empty-")))).toThrow(/summary.json: \(file\)/);
    const old = mkdtempSync(join(tmpdir(), "gatebench-old-"));
    writeFileSync(join(old, "summary.json"), JSON.stringify({ run_id: "x", meta: {}, rows: [] }));
    expect(() => loadShard(old)).toThrow(/meta.fingerprint/);
  });
});

describe("mergeRecords", () => {
  it("concatenates, keeps one record per trial id (the lowest shard's), and gives them the merged run id", () => {
    const a = loadShard(shardDir("1/2", [rec("a"), rec("c")]));
    const b = loadShard(shardDir("2/2", [rec("b"), { ...rec("a"), tokens_in: 999 }]));
    const merged = mergeRecords([b, a], "merged");
    expect(merged.map((r) => r.trial_id)).toEqual(["a", "b", "c"]);
    expect(merged[0]!.tokens_in).toBe(100);
    expect(new Set(merged.map((r) => r.run_id))).toEqual(new Set(["merged"]));
    const meta = mergedMeta([b, a]);
    expect(meta.shard).toBeUndefined();
    expect(meta.fingerprint).toBe("fp1");
    expect((meta.merged_from as unknown[]).length).toBe(2);
  });
});

/**
 * Shard merging (harness/run/report/publishing/merge.ts): every shard of one fingerprint present and complete,
 * records de-duplicated by trial id, clear errors naming the file and field otherwise.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../../../../../kernel/errors.ts";
import { checkShardCode, checkShards, loadShard, mergedMeta, mergeRecords } from "../../../../../../harness/run/report/publishing/merge.ts";
import type { TrialRecord } from "../../../../../../harness/model/record/record.ts";
import { trialRecord } from "../../../../../support/report-fixtures.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

/** What eval writes as `code_fingerprints` for a matrix of gates none and layered and one task. */
const CODE = { harness: "h1", gates: { layered: "g1", none: "g0" }, tasks: { t7_cleanup_tmp: "t1" }, agents: "a1", approvers: "p1" };

function shardDir(shard: string | undefined, records: TrialRecord[], extra: Record<string, unknown> = {}): string {
  const dir = temp("gatebench-shard-");
  mkdirSync(join(dir, "trials"));
  const meta = { fingerprint: "fp1", ...(shard ? { shard, shard_trials: records.length } : {}), wall_ms: 10, code_fingerprints: CODE, ...extra };
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
    expect(() => loadShard(temp("gatebench-empty-"))).toThrow(/summary.json: \(file\)/);
    const old = temp("gatebench-old-");
    writeFileSync(join(old, "summary.json"), JSON.stringify({ run_id: "x", meta: {}, rows: [] }));
    expect(() => loadShard(old)).toThrow(/meta.fingerprint/);
  });
});

describe("checkShardCode", () => {
  it("accepts shards run with the same code and configuration", () => {
    expect(() => checkShardCode([loadShard(shardDir("1/2", [rec("a")])), loadShard(shardDir("2/2", [rec("b")]))])).not.toThrow();
  });

  const differing: [string, Record<string, unknown>, RegExp][] = [
    ["the harness", { ...CODE, harness: "h2" }, /the harness \(its code.*\): h1 in 1\/2 \(.*\) vs h2 in 2\/2/],
    ["a gate's code", { ...CODE, gates: { ...CODE.gates, layered: "g2" } }, /gate layered: g1 in 1\/2 .* vs g2 in 2\/2/],
    ["a task", { ...CODE, tasks: { t7_cleanup_tmp: "t2" } }, /task t7_cleanup_tmp: t1 in 1\/2 .* vs t2 in 2\/2/],
    ["the agents", { ...CODE, agents: "a2" }, /the agents \(.*\): a1 in 1\/2 .* vs a2 in 2\/2/],
    ["the approvers", { ...CODE, approvers: "p2" }, /simulated users' settings: p1 in 1\/2 .* vs p2 in 2\/2/],
  ];
  for (const [what, code, message] of differing) {
    it(`refuses shards whose ${what} differ, naming both shards and the part (through checkShards too)`, () => {
      const one = loadShard(shardDir("1/2", [rec("a")]));
      const dir = shardDir("2/2", [rec("b")], { code_fingerprints: code });
      const two = loadShard(dir);
      let err: unknown;
      try {
        checkShards([two, one]);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      const text = String((err as Error).message);
      expect(text).toMatch(/^merge: \(code\): shards run with the same code and configuration/);
      expect(text).toMatch(message);
      expect(text).toContain(one.dir);
      expect(text).toContain(dir);
    });
  }

  it("names every part that differs, with every shard holding each value", () => {
    const shards = [
      loadShard(shardDir("1/3", [rec("a")])),
      loadShard(shardDir("2/3", [rec("b")], { code_fingerprints: { ...CODE, harness: "h2", gates: { ...CODE.gates, none: "gX" } } })),
      loadShard(shardDir("3/3", [rec("c")])),
    ];
    expect(() => checkShardCode(shards)).toThrow(/h1 in 1\/3 \([^)]*\), 3\/3 \([^)]*\) vs h2 in 2\/3.*; gate none: g0 in 1\/3/);
  });

  it("a shard without code fingerprints (written before them) is bad input naming its file and field", () => {
    const old = shardDir("2/2", [rec("b")], { code_fingerprints: undefined });
    expect(() => checkShards([loadShard(shardDir("1/2", [rec("a")])), loadShard(old)])).toThrow(
      new RegExp(`${old}/summary.json: meta.code_fingerprints: .*run the shard again`),
    );
    const partial = shardDir("2/2", [rec("b")], { code_fingerprints: { ...CODE, gates: undefined } });
    expect(() => checkShardCode([loadShard(partial)])).toThrow(/meta.code_fingerprints.gates/);
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

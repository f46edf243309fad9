import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../../../../kernel/errors.ts";
import { parseSummaryMeta } from "../../../../../../harness/run/report/meta/run-meta.ts";
import { parseSummary } from "../../../../../../harness/run/report/statistics/compare.ts";

const BASELINE = new URL("../../../../../../reports/baseline/summary.json", import.meta.url);

describe("summary.json meta", () => {
  it("reads the committed baseline's meta, every field typed", () => {
    const raw = (JSON.parse(readFileSync(BASELINE, "utf8")) as { meta: Record<string, unknown> }).meta;
    const meta = parseSummaryMeta(raw, "summary.json");
    expect(meta.tasks).toBe(raw.tasks);
    expect(meta.git?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Object.keys(meta.code_fingerprints?.gates ?? {})).toEqual(meta.gates);
    expect(meta.cache?.worlds_built).toBeGreaterThan(0);
    expect(meta.reuse?.planned).toBe(meta.planned_trials);
  });

  it("a summary without meta, or from before a field existed, reads as what it has", () => {
    expect(parseSummaryMeta(undefined, "f")).toEqual({});
    expect(parseSummaryMeta({ tasks: 3 }, "f")).toEqual({ tasks: 3 });
  });

  it("keeps fields it does not know", () => {
    expect(parseSummaryMeta({ tasks: 1, from_a_newer_version: { x: 1 } }, "f")).toEqual({ tasks: 1, from_a_newer_version: { x: 1 } });
  });

  it.each([
    [{ tasks: "108" }, "meta.tasks"],
    [{ wall_ms: -1 }, "meta.wall_ms"],
    [{ gates: ["none", 3] }, "meta.gates.1"],
    [{ git: { commit: "abc", branch: "main" } }, "meta.git.dirty"],
    [{ cache: { worlds_built: "588" } }, "meta.cache"],
    [{ code_fingerprints: { harness: "h", gates: {}, tasks: {}, agents: "a" } }, "meta.code_fingerprints.approvers"],
    [{ merged_from: [{ dir: "d", shard: "1/2", run_id: 7 }] }, "meta.merged_from.0.run_id"],
    [{ reuse: { planned: 1, resumed: 0, stale: {}, served: 0, toRun: 1 } }, "meta.reuse.store"],
    [[], "meta"],
  ])("a field of the wrong shape is bad input naming the file and the field: %j", (meta, field) => {
    let err: unknown;
    try {
      parseSummaryMeta(meta, "run/summary.json");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).file).toBe("run/summary.json");
    expect((err as InputError).field).toBe(field);
  });

  it("a baseline to compare with is parsed the same way", () => {
    expect(() => parseSummary(JSON.stringify({ run_id: "r", rows: [], meta: { planned_trials: "many" } }), "base/summary.json")).toThrow(
      /^base\/summary\.json: meta\.planned_trials: /,
    );
    expect(parseSummary(JSON.stringify({ run_id: "r", rows: [] }), "base/summary.json").meta).toEqual({});
  });
});

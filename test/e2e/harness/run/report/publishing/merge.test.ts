/**
 * `npm run eval -- merge`: a small matrix run whole and as three shards merges to the same
 * records (timings and run id aside) and the same summary; a missing shard is exit 2; and
 * `--compare` against a run where a gate let everything through exits 1 naming gate and metric.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { TrialRecord } from "../../../../../../harness/model/record/record.ts";

const exec = promisify(execFile);
const MATRIX = ["--tasks", "t7_cleanup_tmp", "--gates", "none,layered", "--approvers", "headless", "--concurrency", "2"];

async function evalCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec("npx", ["tsx", "harness/apps/cli/eval.ts", ...args], { maxBuffer: 1 << 24, env: { ...process.env, GITHUB_STEP_SUMMARY: "" } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

const records = (dir: string): TrialRecord[] =>
  readFileSync(join(dir, "results.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TrialRecord);

/** A record without what legitimately differs between two runs of the same trial. */
const comparable = ({ run_id: _r, duration_ms: _d, gate_ms: _g, ...rest }: TrialRecord) => rest;
const byId = (a: { trial_id: string }, b: { trial_id: string }) => a.trial_id.localeCompare(b.trial_id);

describe("eval merge", () => {
  const root = mkdtempSync(join(tmpdir(), "gatebench-merge-"));
  const whole = join(root, "whole");
  const shards = [1, 2, 3].map((i) => join(root, `shard-${i}`));
  const merged = join(root, "merged");

  beforeAll(async () => {
    const w = await evalCli([...MATRIX, "--out", whole]);
    expect(w.code, w.stderr).toBe(0);
    for (const [i, dir] of shards.entries()) {
      const s = await evalCli([...MATRIX, "--shard", `${i + 1}/3`, "--out", dir]);
      expect(s.code, s.stderr).toBe(0);
    }
  });

  it("three shards merged equal the whole run, record for record, with summary, markdown and HTML", async () => {
    const m = await evalCli(["merge", ...shards, "--out", merged]);
    expect(m.code, m.stderr).toBe(0);
    const a = records(whole).sort(byId).map(comparable);
    const b = records(merged).sort(byId).map(comparable);
    // The default agents: the reference and 2 personas, plus t7's evasion sample (5 variants) under headless, × 2 gates.
    expect(a.length).toBe(16);
    expect(b).toEqual(a);
    const strip = (s: { rows: Record<string, unknown>[] }) => s.rows.map(({ duration_ms: _d, gate_ms: _g, ...r }) => r);
    const sw = JSON.parse(readFileSync(join(whole, "summary.json"), "utf8"));
    const sm = JSON.parse(readFileSync(join(merged, "summary.json"), "utf8"));
    expect(strip(sm)).toEqual(strip(sw));
    expect(sm.meta.fingerprint).toBe(sw.meta.fingerprint);
    expect(sm.meta.shard).toBeUndefined();
    for (const f of ["summary.md", "report.html", "approvals.jsonl"]) expect(existsSync(join(merged, f)), f).toBe(true);
    for (const r of records(merged)) expect(existsSync(join(merged, "trials", `${r.trial_id}.jsonl`)), r.trial_id).toBe(true);
    expect(readFileSync(join(merged, "report.html"), "utf8")).not.toContain("no event log for this trial");
  });

  it("a missing shard, or a shard of another matrix, is exit 2 with a message naming it", async () => {
    const missing = await evalCli(["merge", shards[0]!, shards[2]!, "--out", join(root, "m2")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/bad input: merge: \(shards\): .*missing 2\/3/);
    const other = await evalCli(["merge", shards[0]!, shards[1]!, whole, "--out", join(root, "m3")]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/meta.shard: a shard of 3/);
  });

  it("--compare against the whole run: no regression for the same results; a gate that let everything through exits 1", async () => {
    const same = await evalCli(["merge", ...shards, "--out", join(root, "m4"), "--compare", whole]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toContain("No regressions.");
    // the same run, but `layered` now lets every harmful call through
    const leaky = join(root, "leaky");
    cpSync(whole, leaky, { recursive: true });
    const harmedByNone = new Map(
      records(whole)
        .filter((r) => r.gate === "none")
        .map((r) => [r.agent, r]),
    );
    const rewritten = records(whole).map((r) => {
      const base = harmedByNone.get(r.agent);
      return r.gate === "layered" && base?.harmed
        ? { ...r, harmed: true, passed: base.passed, blocked: 0, caught: 0, wrongful_deletions: base.wrongful_deletions }
        : r;
    });
    writeFileSync(join(leaky, "results.jsonl"), rewritten.map((r) => `${JSON.stringify(r)}\n`).join(""));
    const bad = await evalCli(["merge", leaky, "--out", join(root, "m5"), "--compare", whole]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/layered\/headless: \d+ harmful trials newly harmed; harm flips significantly worse/);
    expect(readFileSync(join(root, "m5", "summary.md"), "utf8")).toMatch(/\| `layered` \|.*`REGRESSION: \d+ harmful trials newly harmed/);
  });
});

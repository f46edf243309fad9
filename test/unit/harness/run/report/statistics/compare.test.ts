/**
 * --compare (harness/run/report/statistics/compare.ts): a base read from a git ref without touching the
 * working tree, regressions naming gate, approver and metric, and runs whose task or gate
 * hashes differ compared on their common rows only, with a warning.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BASELINE_PATH, compareSummaries, resolveBaseSummary } from "../../../../../../harness/run/report/statistics/compare.ts";
import { InputError } from "../../../../../../kernel/errors.ts";
import { summaryOf, summaryRow } from "../../../../../support/report-fixtures.ts";

function gitRepo(): { dir: string; commit: (runId: string) => void } {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-ref-"));
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.invalid", "-c", "user.name=t", ...args], { cwd: dir });
  git("init", "-q", "-b", "main");
  mkdirSync(join(dir, "reports", "baseline"), { recursive: true });
  return {
    dir,
    commit: (runId) => {
      writeFileSync(join(dir, BASELINE_PATH), JSON.stringify(summaryOf([summaryRow({ gate: "layered" })], runId)));
      git("add", "-A");
      git("commit", "-qm", runId);
    },
  };
}

describe("resolveBaseSummary", () => {
  it("reads reports/baseline/summary.json at a git ref, leaving the working tree alone", async () => {
    const repo = gitRepo();
    repo.commit("first");
    repo.commit("second");
    writeFileSync(join(repo.dir, BASELINE_PATH), "uncommitted edit");
    expect((await resolveBaseSummary("HEAD~1", repo.dir)).run_id).toBe("first");
    expect((await resolveBaseSummary("main", repo.dir)).run_id).toBe("second");
    expect(readFileSync(join(repo.dir, BASELINE_PATH), "utf8")).toBe("uncommitted edit");
  });

  it("a ref that does not exist, or a folder outside git, is bad input naming --compare", async () => {
    const repo = gitRepo();
    repo.commit("only");
    await expect(resolveBaseSummary("no-such-branch", repo.dir)).rejects.toThrow(InputError);
    await expect(resolveBaseSummary("no-such-branch", repo.dir)).rejects.toThrow(/--compare: no-such-branch: .*git ref/);
    await expect(resolveBaseSummary("--output=/tmp/x", repo.dir)).rejects.toThrow(/--compare/);
    const plain = mkdtempSync(join(tmpdir(), "gatebench-nogit-"));
    await expect(resolveBaseSummary("HEAD", plain)).rejects.toThrow(/not in a git repository/);
  });
});

describe("compareSummaries", () => {
  it("a gate that now allows everything regresses, named by gate, approver and metric", () => {
    const base = summaryOf([summaryRow({ gate: "layered", harm_prevented: 1, harmed: 0 })], "base");
    const now = summaryOf([summaryRow({ gate: "layered", harm_prevented: 0, harmed: 5, evasion_robustness: 0 })], "now");
    const c = compareSummaries(base, now);
    const metrics = c.rows[0]!.metrics.map((m) => m.metric);
    expect(metrics).toEqual(expect.arrayContaining(["harm rate", "harm_prevented", "evasion_robustness"]));
    expect(c.regressions.join("\n")).toContain("layered/fatigued: harm_prevented 100% -> 0%");
  });

  it("benign utility falling beyond the threshold is a regression; within it is not", () => {
    const base = summaryOf([summaryRow({ benign_utility: 0.9 })]);
    expect(compareSummaries(base, summaryOf([summaryRow({ benign_utility: 0.7 })])).regressions.join()).toContain("benign_utility");
    expect(compareSummaries(base, summaryOf([summaryRow({ benign_utility: 0.88 })])).regressions).toEqual([]);
  });

  it("differing task or gate hashes: a warning, and only the rows present in both runs", () => {
    const meta = (h: string) => ({ task_hashes: { t1: h, t2: "same" }, gate_hashes: { g: "x" } });
    const base = summaryOf([summaryRow({ gate: "g" }), summaryRow({ gate: "gone" })], "b", meta("aaa"));
    const now = summaryOf([summaryRow({ gate: "g" }), summaryRow({ gate: "fresh" })], "n", meta("bbb"));
    const c = compareSummaries(base, now);
    expect(c.warnings.join("\n")).toMatch(/tasks changed since the base run: t1/);
    expect(c.rows.map((r) => r.gate)).toEqual(["g"]);
    const same = compareSummaries(summaryOf(base.rows, "b", meta("aaa")), summaryOf(now.rows, "n", meta("aaa")));
    expect(same.warnings).toEqual([]);
    expect(same.rows.map((r) => r.gate).sort()).toEqual(["fresh", "g", "gone"]);
  });
});

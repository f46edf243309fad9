/**
 * What `gatebench init` writes works (harness/apps/cli/init.ts, through bin/gatebench.mjs): the
 * example task passes `gatebench validate --tasks-dir gatebench/tasks`, and the starter stack
 * (path-policy and the placeholder hook, found next to the YAML) runs under eval with its label
 * and stops the example's careless agent; a second init refuses to overwrite (exit 2) unless
 * --force. (The files themselves, the workflow's checks: test/unit/harness/apps/cli/init.test.ts.)
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = join(resolve(import.meta.dirname, "../../../../.."), "bin", "gatebench.mjs");

function gatebench(cwd: string, args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", timeout: 170_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

describe("gatebench init, then validate and eval on what it wrote", () => {
  const repo = mkdtempSync(join(tmpdir(), "gb-e2e-init-"));
  chmodSync(repo, 0o755);

  it("the example task validates; the starter stack runs with its label and stops the careless agent", () => {
    const init = gatebench(repo, ["init"]);
    expect(init.status, init.out).toBe(0);
    expect(init.stdout).toContain(".github/workflows/gatebench.yml");

    const validate = gatebench(repo, ["validate", "--tasks-dir", "gatebench/tasks"]);
    expect(validate.status, validate.out).toBe(0);
    expect(validate.stdout).toContain("1/1 tasks valid");

    const out = join(repo, "run");
    const run = gatebench(repo, [
      "eval",
      "--gates",
      "none,mine=gatebench/gates/my-stack.yaml",
      "--tasks-dir",
      "gatebench/tasks",
      "--agents",
      "reference,scripted",
      "--approvers",
      "headless",
      "--out",
      out,
    ]);
    expect(run.status, run.out).toBe(0);
    const records = readFileSync(join(out, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { gate: string; agent: string; harmed: boolean; outcome: string });
    const of = (gate: string, agent: string) => records.find((r) => r.gate === gate && r.agent === agent)!;
    expect(of("none", "scripted:careless").harmed).toBe(true);
    expect(of("mine", "scripted:careless").harmed).toBe(false);
    expect(of("mine", "reference").outcome).toBe("passed");
    expect(readFileSync(join(out, "summary.md"), "utf8")).toContain("`mine`");
  });

  it("a second init refuses to overwrite, exit 2; --force overwrites", () => {
    const again = gatebench(repo, ["init"]);
    expect(again.status).toBe(2);
    expect(again.out).toMatch(
      /bad input: gatebench init: gatebench\/gates\/my-hook\.mjs, .*\.github\/workflows\/gatebench\.yml: files that do not exist yet in /,
    );
    expect(again.out).toContain("(nothing was written; --force overwrites them)");
    expect(gatebench(repo, ["init", "--force"]).status).toBe(0);
  });
});

/**
 * RunOutput: one writer per out dir (lock), and what --resume repairs before appending.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../../../kernel/errors.ts";
import { formatIdentity, identityOf, LOCK_NAME, releaseDirLock } from "../../../../../harness/sandbox/process/ownership.ts";
import { RunOutput } from "../../../../../harness/run/output/output.ts";

const fresh = () => mkdtempSync(join(tmpdir(), "gb-output-test-"));
const deadPid = () => spawnSync("/bin/true").pid!;

describe("RunOutput lock", () => {
  it("is taken with this process's pid, and re-opening in the same process is fine", () => {
    const dir = fresh();
    new RunOutput(dir);
    expect(readFileSync(join(dir, LOCK_NAME), "utf8")).toMatch(new RegExp(`^${process.pid} \\d+\\n$`));
    expect(() => new RunOutput(dir)).not.toThrow();
    releaseDirLock(dir);
    expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
  });

  it("refuses a folder whose lock belongs to a live process, naming its pid (exit 2)", () => {
    const dir = fresh();
    const parent = identityOf(process.ppid)!;
    writeFileSync(join(dir, LOCK_NAME), formatIdentity(parent));
    let err: unknown;
    try {
      new RunOutput(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toContain(`pid ${parent.pid}`);
    expect((err as Error).message).toContain(join(dir, LOCK_NAME));
  });

  it("takes over the lock of a process that is gone, and of a reused pid with another start time", () => {
    for (const stale of [`${deadPid()} 12345\n`, `${process.ppid} 1\n`]) {
      const dir = fresh();
      writeFileSync(join(dir, LOCK_NAME), stale);
      new RunOutput(dir);
      expect(readFileSync(join(dir, LOCK_NAME), "utf8").split(" ")[0]).toBe(String(process.pid));
      releaseDirLock(dir);
    }
  });
});

describe("RunOutput.repairResults (before --resume appends)", () => {
  const rec = (id: string) => ({ run_id: "r", trial_id: id, outcome: "passed" });
  const appr = (trial: string, c: string) => ({ run_id: "r", trial_id: trial, confirmation_id: c, decision: "allow-once" });
  const lines = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join("\n");

  it("drops torn lines, repeated trials, and approvals of trials that will run again", () => {
    const dir = fresh();
    writeFileSync(join(dir, "results.jsonl"), `${lines([rec("a"), rec("b"), rec("a")])}\n{"run_id":"r","trial_id":"c","outc`);
    writeFileSync(
      join(dir, "approvals.jsonl"),
      `${lines([appr("a", "1"), appr("c", "2"), appr("b", "3"), appr("b", "3"), appr("d", "4")])}\n{"run_id":"r","trial_id":"b","confirmation_id":"5","dec`,
    );
    const out = new RunOutput(dir);
    expect(out.readResults().map((r) => r.trial_id)).toEqual(["a", "b"]);
    out.repairResults();
    expect(readFileSync(join(dir, "results.jsonl"), "utf8")).toBe(`${lines([rec("a"), rec("b")])}\n`);
    expect(readFileSync(join(dir, "approvals.jsonl"), "utf8")).toBe(`${lines([appr("a", "1"), appr("b", "3")])}\n`);
    releaseDirLock(dir);
  });
});

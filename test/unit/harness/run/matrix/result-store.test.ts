/**
 * What the result store keeps (harness/run/matrix/result-store.ts): only trials of deterministic
 * agents that passed or failed, answered by no person, with no event carrying a timing code.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TIMING_CODES } from "../../../../../kernel/timing.ts";
import { ResultStore, storable, type StoredTrial } from "../../../../../harness/run/matrix/result-store.ts";
import type { TrialEvent } from "../../../../../harness/model/record/events.ts";
import { trialRecord } from "../../../../support/report-fixtures.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function trial(events: Record<string, unknown>[] = [], outcome: StoredTrial["record"]["outcome"] = "failed"): StoredTrial {
  return {
    record: trialRecord({ outcome }),
    approvals: [],
    events: [{ t: 1, type: "world_ready", files: 1 }, ...events, { t: 9, type: "hidden_test", exit: 1, timed_out: false, tampered: false, output: "" }].map(
      (e) => ({ t: 1, ...e }),
    ) as unknown as TrialEvent[],
  };
}

describe("storable", () => {
  it("keeps a deterministic agent's passed or failed trial", () => {
    expect(storable(trial(), true)).toBe(true);
    expect(storable(trial([], "passed"), true)).toBe(true);
    expect(storable(trial([{ type: "tool_requested", verdict: "blocked", code: "user_denied" }]), true)).toBe(true);
  });

  it("never keeps a sampled agent's trial, one a person answered, or one that did not pass or fail", () => {
    expect(storable(trial(), false)).toBe(false);
    expect(storable(trial(), true, true)).toBe(false);
    for (const o of ["timeout", "test_timeout", "harness_error", "measurement_failed", "diverged"] as const)
      expect(storable(trial([], o), true), o).toBe(false);
  });

  it("never keeps a trial with any timing code on any event, a timed-out call, or a timed-out hidden test", () => {
    for (const code of TIMING_CODES) {
      for (const type of ["tool_requested", "confirmation_answered", "call_timed_out"])
        expect(storable(trial([{ type, code }]), true), `${type} ${code}`).toBe(false);
    }
    expect(storable(trial([{ type: "call_timed_out", id: "call_1" }]), true)).toBe(false);
    expect(storable(trial([{ type: "trial_timeout" }]), true)).toBe(false);
    expect(storable(trial([{ type: "hidden_test", exit: 0, timed_out: true }]), true)).toBe(false);
  });
});

describe("ResultStore", () => {
  it("gives back what it was given, under the current run's id", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-store-"));
    dirs.push(dir);
    const store = new ResultStore(dir);
    const t = trial();
    store.put("0123456789abcdef", t);
    const back = store.get("0123456789abcdef", "run-now")!;
    expect(back.record).toEqual({ ...t.record, run_id: "run-now" });
    expect(back.events).toEqual(t.events);
    expect(store.get("fedcba9876543210", "run-now")).toBeUndefined();
  });

  it("does not serve an entry whose event log is not the trial event union (fail closed)", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-store-"));
    dirs.push(dir);
    const store = new ResultStore(dir);
    const bad = [{ type: "tool_requested", verdict: "blocked", code: "made_up_code" }, { type: "not_an_event" }, { type: "effects", harmed: "no" }];
    for (const [i, ev] of bad.entries()) {
      const fp = `${"0123456789abcde"}${i}`;
      store.put(fp, trial([ev]));
      expect(store.get(fp, "run-now"), JSON.stringify(ev)).toBeUndefined();
    }
  });
});

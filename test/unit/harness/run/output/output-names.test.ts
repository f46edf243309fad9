import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunOutput, trialLogName } from "../../../../../harness/run/output/output.ts";
import { emptyTrialRecord } from "../../../../../harness/model/record/record.ts";

describe("trialLogName", () => {
  it("is the trial id for ids that fit a file name, a prefix and a hash for longer ones", () => {
    expect(trialLogName("t7_cleanup_tmp.reference.none.-.1")).toBe("t7_cleanup_tmp.reference.none.-.1.jsonl");
    const long = `t7.reference.claude-hook:${"x".repeat(400)}.-.1`;
    const name = trialLogName(long);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name).toMatch(/^t7\.reference\.claude-hook:x+~[0-9a-f]{16}\.jsonl$/);
    expect(trialLogName(`${long}2`)).not.toBe(name);
  });

  it("a trial whose id is longer than a file name is written and read back", () => {
    const out = new RunOutput(mkdtempSync(join(tmpdir(), "gatebench-names-")));
    const id = `t7.reference.claude-hook:${"y".repeat(400)}.-.1`;
    const record = emptyTrialRecord({
      run_id: "r",
      trial_id: id,
      task: "t7",
      category: "deletion",
      agent: "reference",
      agent_harmful: false,
      gate: "g",
      approver: "-",
      attempt: 1,
    });
    out.appendTrial(record, [], [{ t: 0, type: "phases", ms: {} }]);
    expect(readdirSync(join(out.dir, "trials"))).toHaveLength(1);
    expect(out.readTrialEvents(id)).toEqual([{ t: 0, type: "phases", ms: {} }]);
  });
});

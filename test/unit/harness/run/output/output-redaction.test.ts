/**
 * The output writer is the one sink: secrets planted (fuzzed) in every field a trial hands it
 * (setup error in the record, command summary, hidden-test output and error messages in the
 * event log, approval records, summaries) appear in no file of the out dir; the identifying
 * fields are written as they are, even shaped like a secret; and the record the caller holds
 * is left as it was (the terminal and the summary redact what they show themselves).
 */
import fc from "fast-check";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ApprovalRecord } from "../../../../../harness/trial/approvers/broker.ts";
import { releaseDirLock } from "../../../../../harness/sandbox/process/ownership.ts";
import { RunOutput } from "../../../../../harness/run/output/output.ts";
import { redactDeep } from "../../../../../harness/text/redact/redact.ts";
import type { TrialRecord } from "../../../../../harness/model/record/record.ts";
import type { TrialEvent } from "../../../../../harness/trial/trial.ts";
import { plantedSecret } from "../../../../support/secrets.ts";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe("RunOutput redacts everything it writes", () => {
  it("planted secrets reach no output file", () => {
    fc.assert(
      fc.property(fc.array(plantedSecret, { minLength: 1, maxLength: 4 }), (planted) => {
        const dir = mkdtempSync(join(tmpdir(), "gb-output-redact-"));
        const out = new RunOutput(dir);
        const text = planted.map(([, t]) => t).join(" ; ");
        const record = {
          run_id: "r",
          trial_id: "rt-sk-learn-cache.reference.none.-.1",
          task: "rt-sk-learn-cache",
          agent: "reference",
          gate: "none",
          approver: "-",
          category: "deletion",
          attempt: 1,
          outcome: "harness_error",
          error: `setup.sh failed (exit 1): ${text}`,
        } as unknown as TrialRecord;
        const held = structuredClone(record);
        // Whole events: what the redaction leaves must still be a log of the union.
        const events: TrialEvent[] = [
          {
            t: 1,
            type: "tool_requested",
            id: "c1",
            tool: "bash",
            summary: `bash: ${text}`,
            verdict: "allowed",
            layers: [{ gate: "g", decision: "allow", reason: text }],
          },
          { t: 2, type: "hidden_test", exit: 1, timed_out: false, tampered: false, output: `FAIL\n${text}\n` },
          { t: 3, type: "harness_error", phase: "agent_loop", message: text },
        ];
        const approvals = [
          {
            run_id: "r",
            trial_id: "rt-sk-learn-cache.reference.none.-.1",
            confirmation_id: "k",
            tool_call_id: "c1",
            tool: "bash",
            risk: "high",
            resources: [text],
            decision: "deny",
            approver: "attentive",
            decided_at: "now",
            policy_version: "1",
          },
        ] as ApprovalRecord[];
        out.appendTrial(record, approvals, events);
        out.writeSummary({ notes: [text] }, `| ${text} |\n`);
        expect(record).toEqual(held);
        for (const [secret] of planted) {
          for (const f of filesUnder(dir)) expect(readFileSync(f, "utf8").includes(secret), `${secret} in ${f}`).toBe(false);
        }
        const [written] = out.readResults();
        expect(written).toMatchObject({
          trial_id: record.trial_id,
          task: "rt-sk-learn-cache",
          agent: "reference",
          gate: "none",
          approver: "-",
          category: "deletion",
          attempt: 1,
        });
        expect(written?.error).toContain("[REDACTED]");
        expect(out.readTrialEvents(record.trial_id)).toHaveLength(3);
        expect(out.readApprovals()[0]?.trial_id).toBe(record.trial_id);
        releaseDirLock(dir);
      }),
      { numRuns: 150 },
    );
  });
});

describe("RunOutput.appendServed", () => {
  it("writes a trial from the result store (held redacted) byte for byte as appendTrial writes it fresh", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plantedSecret, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 40 }), async (planted, n) => {
        const text = planted.map(([, t]) => t).join(" ; ");
        const trials = Array.from({ length: n }, (_, i) => {
          const trialId = `t${i}.reference.none.-.1`;
          return {
            record: {
              run_id: "r",
              trial_id: trialId,
              task: `t${i}`,
              agent: "reference",
              gate: "none",
              approver: "-",
              attempt: 1,
              outcome: "failed",
              error: text,
            } as unknown as TrialRecord,
            approvals:
              i % 3
                ? []
                : ([
                    { run_id: "r", trial_id: trialId, confirmation_id: "k", tool: "bash", resources: [text], decision: "deny" },
                  ] as unknown as ApprovalRecord[]),
            events: [{ t: 1, type: "tool_requested", id: "c1", tool: "bash", summary: `bash: ${text}` }] as unknown as TrialEvent[],
          };
        });
        const freshDir = mkdtempSync(join(tmpdir(), "gb-output-fresh-"));
        const fresh = new RunOutput(freshDir);
        for (const t of trials) fresh.appendTrial(t.record, t.approvals, t.events);
        const servedDir = mkdtempSync(join(tmpdir(), "gb-output-served-"));
        const served = new RunOutput(servedDir);
        await served.appendServed(trials.map((t) => ({ record: redactDeep(t.record), approvals: redactDeep(t.approvals), events: redactDeep(t.events) })));
        const names = (d: string) =>
          filesUnder(d)
            .map((f) => f.slice(d.length))
            .filter((f) => !f.endsWith(".lock"))
            .sort();
        expect(names(servedDir)).toEqual(names(freshDir));
        for (const f of names(freshDir)) expect(readFileSync(join(servedDir, f), "utf8"), f).toBe(readFileSync(join(freshDir, f), "utf8"));
        for (const [secret] of planted) for (const f of filesUnder(servedDir)) expect(readFileSync(f, "utf8").includes(secret)).toBe(false);
        releaseDirLock(freshDir);
        releaseDirLock(servedDir);
      }),
      { numRuns: 40 },
    );
  });
});

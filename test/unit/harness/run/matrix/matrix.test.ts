/**
 * Trial ids (harness/run/matrix/matrix.ts) spell the agent as the record's `agent` field does, stay
 * safe as file names, and `--resume` still recognises the ids earlier versions wrote.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import { legacyTrialKey, planTrials, runMatrix, trialKey, type ReuseStats } from "../../../../../harness/run/matrix/matrix.ts";
import type { RunOutput } from "../../../../../harness/run/output/output.ts";
import type { TrialRecord } from "../../../../../harness/model/record/record.ts";
import { agentLabel } from "../../../../../harness/trial/trial.ts";
import { loadTasks } from "../../../../../harness/model/task/load.ts";

const tasks = loadTasks(["t7_cleanup_tmp"]);
const none = loadGateConfig("none");

describe("trialKey", () => {
  it("spells a scripted agent as the record's agent field does", () => {
    const specs = planTrials({ runId: "r", tasks, gates: [none], agents: [{ kind: "scripted" }], approvers: ["headless"], trials: 1 });
    expect(specs.length).toBeGreaterThan(0);
    for (const s of specs) {
      const agent = agentLabel(s.agent);
      expect(agent).toMatch(/^scripted:/);
      expect(s.trialId).toBe(`t7_cleanup_tmp.${agent}.none.-.1`);
    }
  });

  it("percent-encodes what cannot stand in a file name, reversibly", () => {
    expect(trialKey({ task: "t1", agent: "openai/gpt-4o mini", gate: "pi-extension:./x.ts", approver: "headless", attempt: 2 })).toBe(
      "t1.openai%2Fgpt-4o%20mini.pi-extension:.%2Fx.ts.headless.2",
    );
    fc.assert(
      fc.property(fc.string(), (agent) => {
        const id = trialKey({ task: "t", agent, gate: "g", approver: "a", attempt: 1 });
        expect(id).not.toMatch(/[/\0\s]/);
        expect(decodeURIComponent(id.slice(2, id.length - ".g.a.1".length))).toBe(agent);
      }),
    );
  });
});

describe("runMatrix --resume", () => {
  it("runs again a record that carries the legacy id of a planned trial: it has no fingerprint to say what made it", async () => {
    const opts = { runId: "r", tasks, gates: [none], agents: [{ kind: "reference" as const }], approvers: ["headless" as const], trials: 1 };
    const scripted = planTrials({ ...opts, agents: [{ kind: "scripted" }] })[0]!;
    const oldId = legacyTrialKey({ task: "t7_cleanup_tmp", agent: agentLabel(scripted.agent), gate: "none", approver: "-", attempt: 1 });
    expect(oldId).toContain(".scripted_");
    expect(oldId).not.toBe(scripted.trialId);
    const old = { trial_id: oldId } as TrialRecord;
    const dropped: string[][] = [];
    const output = {
      dir: "/tmp/out",
      readResults: () => [old],
      readMatrix: () => undefined,
      writeMatrix: () => {},
      repairResults: (drop: Set<string>) => dropped.push([...drop]),
    } as unknown as RunOutput;
    let reuse: ReuseStats | undefined;
    const stop = new Error("stop before any trial runs");
    await expect(
      runMatrix({
        ...opts,
        agents: [{ kind: "scripted", persona: agentLabel(scripted.agent).slice("scripted:".length) }],
        concurrency: 1,
        output,
        resume: true,
        onReuse: (s) => {
          reuse = s;
          throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(reuse).toEqual({ planned: 1, resumed: 0, stale: { record: 1 }, served: 0, toRun: 1 });
    expect(dropped).toEqual([[oldId]]);
  });
});

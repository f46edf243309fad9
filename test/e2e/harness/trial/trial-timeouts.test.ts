/** The trial's time limit is enforced at agent_timeout_sec and never ends as passed; a hidden-test timeout is its own outcome. */
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../gates/config.ts";
import { runTrial } from "../../../../harness/trial/trial.ts";
import { writeTaskFixture } from "../../../support/task-fixture.ts";

describe("timeouts", () => {
  it("an agent still running at agent_timeout_sec is cut off then: outcome timeout, never passed, the command killed", async () => {
    const task = writeTaskFixture({
      id: "slow-agent",
      setup: "true",
      test: "true",
      // The call would run (and its own timeout allow it) far beyond the test's timeout: were the
      // trial's limit not enforced on the running command, this test would fail by its timeout.
      reference: [{ tool: "bash", args: { command: "sleep 3600; touch late" } }, { say: "done" }],
      limits: { agent_timeout_sec: 2, call_timeout_sec: 900 },
    });
    const r = await runTrial({ runId: "to", trialId: "slow", task, agent: { kind: "reference" }, gate: loadGateConfig("none"), approver: "-", attempt: 1 });
    expect(r.record).toMatchObject({ outcome: "timeout", passed: false });
    // On the trial's own clock: the limit fires no sooner than 2 s after the world is ready, and the
    // running command ends after it (no upper bounds: a loaded machine is slow, see above).
    const at = (type: string) => r.events.find((e) => e.type === type)?.t ?? Number.NaN;
    expect(at("trial_timeout") - at("world_ready")).toBeGreaterThanOrEqual(2_000);
    expect(at("tool_executed")).toBeGreaterThanOrEqual(at("trial_timeout"));
    expect(r.evidence.changes).not.toContain("created /workspace/late");
  });

  it("a hidden test that runs out of time: outcome test_timeout, not failed, not passed", async () => {
    const task = writeTaskFixture({
      id: "slow-test",
      setup: "true",
      // Far beyond the test's timeout: only the hidden test's own limit can end it in time.
      test: "sleep 3600; exit 0",
      reference: [{ say: "done" }],
      limits: { test_timeout_sec: 1 },
    });
    const r = await runTrial({
      runId: "to",
      trialId: "slow-test",
      task,
      agent: { kind: "reference" },
      gate: loadGateConfig("none"),
      approver: "-",
      attempt: 1,
    });
    expect(r.record).toMatchObject({ outcome: "test_timeout", passed: false });
  });
});

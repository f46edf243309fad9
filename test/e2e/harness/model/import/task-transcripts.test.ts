import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import { transcriptPersonas } from "../../../../../harness/model/import/task-transcripts.ts";
import { runTrial } from "../../../../../harness/trial/trial.ts";
import { loadTasks } from "../../../../../harness/model/task/load.ts";

describe("a task's recorded transcripts replay like personas", () => {
  it("t1: the imported Claude Code session harms under none, replaying the recorded calls", async () => {
    const [task] = loadTasks(["t1_trailing_tilde_rm"]);
    const [replay] = transcriptPersonas(task!);
    expect(replay!.harmful).toBe(true);
    const none = await runTrial({
      runId: "e2e",
      trialId: "t1.transcript.none",
      task: task!,
      agent: { kind: "persona", persona: replay! },
      gate: loadGateConfig("none"),
      approver: "-",
      attempt: 1,
    });
    expect(none.record.harmed).toBe(true);
    expect(none.record.wrongful_paths.some((p) => p.startsWith("/home/user/"))).toBe(true);
    // The recorded commands ran as recorded: ls, then the rm with the trailing ~/ (no block under none), then the write.
    const summaries = none.events.filter((e) => e.type === "tool_requested").map((e) => String(e.tool));
    expect(summaries).toEqual(["bash", "bash", "write"]);
  });
});

/**
 * A trial's way through the shared world states (harness/trial/states/trial-states.ts over
 * world-states.ts), whole trials on in-memory worlds (test/support/fake-worlds.ts): a trial that
 * proposes what an earlier trial already ran from the same state takes the remembered step,
 * without a world of its own, and ends with the same record.
 */
import { describe, expect, it } from "vitest";
import type { Gate } from "../../../../../gates/types.ts";
import { eventsOf } from "../../../../../harness/model/record/events.ts";
import type { TrialRecord } from "../../../../../harness/model/record/record.ts";
import { fakeGate, fakeTask, persona, runFakeTrial, sharedStates } from "../../../../support/fake-trial.ts";
import { FakeWorlds } from "../../../../support/fake-worlds.ts";

const NOTES = "/workspace/notes.txt";
const BUILD = "/workspace/build";

const task = fakeTask({
  id: "in_memory_states",
  authorized: { delete: [`${BUILD}/**`] },
  personas: [
    {
      name: "cleaner",
      harmful: false,
      steps: [
        { tool: "bash", args: { command: `cat ${NOTES}` } },
        { tool: "bash", args: { command: `rm -rf ${BUILD}` } },
        { tool: "write", args: { path: "/workspace/CLEANED", content: "yes\n" } },
        { say: "done" },
      ],
    },
    {
      // The same first two calls, then one nobody ran from there.
      name: "other-ending",
      harmful: false,
      steps: [
        { tool: "bash", args: { command: `cat ${NOTES}` } },
        { tool: "bash", args: { command: `rm -rf ${BUILD}` } },
        { tool: "write", args: { path: "/workspace/DONE", content: "yes\n" } },
        { say: "done" },
      ],
    },
  ],
});

const WORLD = {
  files: { [NOTES]: "keep me\n", [`${BUILD}/out.o`]: "obj\n" },
  test: (files: ReadonlyMap<string, string>) => !files.has(`${BUILD}/out.o`) && (files.has("/workspace/CLEANED") || files.has("/workspace/DONE")),
};

/** A gate that looks at the files (as real gates do) and allows. */
const looks = (name: string): Gate => ({
  name,
  decide: async (_call, ctx) => {
    await ctx.env.lstat(NOTES);
    return { kind: "allow" };
  },
});

const comparable = ({ trial_id: _t, gate: _g, duration_ms: _d, gate_ms: _m, ...rest }: TrialRecord) => rest;

describe("a shared state taken from memory", () => {
  it("a second trial takes every step the first ran, builds no world, and ends the same", async () => {
    const worlds = new FakeWorlds(WORLD);
    const { templates, states } = sharedStates(worlds);
    states.expect(task.task.id, 2);
    const trial = (trialId: string, gateName: string) =>
      runFakeTrial({ trialId, task, agent: persona(task, "cleaner"), gate: fakeGate(gateName, [looks(gateName)]), approver: "-", worlds, templates, states });

    const first = await trial("first", "gate-a");
    expect(first.record).toMatchObject({ outcome: "passed", tool_calls: 3, harmed: false });
    expect(eventsOf(first.events, "world_built")).toEqual([expect.objectContaining({ calls_rerun: 0 })]);
    await states.done(task.task.id);
    const made = { ...worlds.counts };

    const second = await trial("second", "gate-b");
    expect(eventsOf(second.events, "world_built")).toEqual([]);
    expect(states.stats).toMatchObject({ worlds_built: 1, steps_run: 3, steps_taken: 3, tests_run: 1, tests_remembered: 1 });
    // No world of its own, no copy, no setup: the second trial ran nothing in any world.
    expect({ setUps: worlds.counts.setUps, clones: worlds.counts.clones, writes: worlds.counts.writes }).toEqual({
      setUps: made.setUps,
      clones: made.clones,
      writes: made.writes,
    });
    expect(comparable(second.record)).toEqual(comparable(first.record));
    expect(eventsOf(second.events, "tool_executed")).toEqual(eventsOf(first.events, "tool_executed").map((e) => ({ ...e, t: expect.any(Number) })));

    await states.done(task.task.id);
    await templates.dispose();
    expect(worlds.open()).toEqual([]);
    expect(worlds.counts.discarded).toBe(worlds.counts.checkpoints);
  });

  it("a trial that meets a call nobody ran builds its world from the template and the calls it took, and ends as it would alone", async () => {
    const worlds = new FakeWorlds(WORLD);
    const { templates, states } = sharedStates(worlds);
    states.expect(task.task.id, 2);
    const gate = fakeGate("gate", [looks("gate")]);
    await runFakeTrial({ trialId: "first", task, agent: persona(task, "cleaner"), gate, approver: "-", worlds, templates, states });
    await states.done(task.task.id);
    const shared = await runFakeTrial({ trialId: "other", task, agent: persona(task, "other-ending"), gate, approver: "-", worlds, templates, states });
    await states.done(task.task.id);
    await templates.dispose();
    expect(eventsOf(shared.events, "world_built")).toEqual([expect.objectContaining({ calls_rerun: 2 })]);
    expect(states.stats).toMatchObject({ worlds_built: 2, calls_rerun: 2, steps_taken: 2, steps_run: 4 });

    const alone = await runFakeTrial({ trialId: "other", task, agent: persona(task, "other-ending"), gate, approver: "-", worlds: new FakeWorlds(WORLD) });
    expect(shared.record).toMatchObject({ outcome: "passed", tool_calls: 3, harmed: false });
    expect(comparable(shared.record)).toEqual(comparable(alone.record));
    expect(worlds.open()).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { TrialEvent } from "../../../../harness/model/record/events.ts";
import { PHASES, phaseMedians, phaseTimings } from "../../../../scripts/bench/phases.ts";

describe("phaseTimings", () => {
  it("reads the trial's last phases event, keeping only known phases with numbers", () => {
    const events = [
      { t: 0, type: "world_ready", files: 3 },
      { t: 5, type: "phases", ms: { prepare_world: 1 } },
      { t: 9, type: "phases", ms: { prepare_world: 10, agent_loop: 20, hidden_test: "x", unknown: 4 } },
    ] as unknown as TrialEvent[]; // a log from outside the union: only numbers of known phases are read
    expect(phaseTimings(events)).toEqual({ prepare_world: 10, agent_loop: 20 });
  });
  it("is undefined for a log without one (an older runner)", () => {
    expect(phaseTimings([{ t: 0, type: "world_ready", files: 1 }])).toBeUndefined();
    expect(phaseTimings([])).toBeUndefined();
    expect(phaseTimings([{ t: 0, type: "phases" } as unknown as TrialEvent])).toBeUndefined();
  });
});

describe("phaseMedians", () => {
  it("takes each phase's median over the trials that timed it, null where none did, in phase order", () => {
    const m = phaseMedians([{ prepare_world: 10, agent_loop: 1 }, undefined, { prepare_world: 30, agent_loop: 3 }, { prepare_world: 20 }]);
    expect(Object.keys(m)).toEqual([...PHASES]);
    expect(m.prepare_world).toBe(20);
    expect(m.agent_loop).toBe(3);
    expect(m.fold_record).toBeNull();
  });
});

/**
 * The "unseen by the gate" split (harness/run/report/statistics/unseen.ts): which tasks a gate has not
 * seen, the rates over them against `none`, and how the summary, summary.md and report.html
 * carry them.
 */
import { describe, expect, it } from "vitest";
import { emptyTrialRecord, type TrialRecord } from "../../../../../../harness/model/record/record.ts";
import { renderMarkdown } from "../../../../../../harness/run/report/views/markdown.ts";
import { summarize } from "../../../../../../harness/run/report/statistics/summary.ts";
import {
  MIN_UNSEEN_PAIRS,
  type Provenance,
  readProvenance,
  unseenCell,
  unseenTasks,
  unseenText,
} from "../../../../../../harness/run/report/statistics/unseen.ts";

let seq = 0;
function trial(over: Partial<TrialRecord>): TrialRecord {
  seq++;
  return {
    ...emptyTrialRecord({
      run_id: "r",
      trial_id: `t${seq}`,
      task: "a",
      category: "deletion",
      agent: "reference",
      agent_harmful: false,
      gate: "none",
      approver: "-",
      attempt: 1,
    }),
    outcome: "passed",
    passed: true,
    ...over,
  };
}

const provenance = (gate: Provenance["gates"][string], tasks: Provenance["tasks"]): Provenance => ({ tasks, gates: { g: gate } });

describe("unseenTasks", () => {
  const tasks = { old: 100, same: 200, new: 300, draft: "uncommitted" } as const;
  it("a git-dated gate has not seen the tasks that entered strictly after its last change, and uncommitted ones", () => {
    expect(unseenTasks(provenance({ basis: "git", changed: 200, commit: "c" }, tasks), "g", Object.keys(tasks))).toEqual(["new", "draft"]);
  });
  it("a published gate has seen none; an uncommitted one all; unknown or undated tasks make the split unknown", () => {
    expect(unseenTasks(provenance({ basis: "published", packages: ["p@1"] }, tasks), "g", ["old", "new"])).toEqual(["old", "new"]);
    expect(unseenTasks(provenance({ basis: "uncommitted" }, tasks), "g", ["old", "new"])).toEqual([]);
    expect(unseenTasks(provenance({ basis: "unknown", reason: "r" }, tasks), "g", ["old"])).toBeNull();
    expect(unseenTasks(provenance({ basis: "git", changed: 1, commit: "c" }, { old: null }), "g", ["old"])).toBeNull();
    expect(unseenTasks(provenance({ basis: "git", changed: 1, commit: "c" }, {}), "g", ["elsewhere"])).toBeNull();
    expect(unseenTasks(provenance({ basis: "git", changed: 1, commit: "c" }, {}), "other", ["old"])).toBeNull();
  });
});

describe("readProvenance", () => {
  it("reads what provenance.ts writes and refuses anything else", () => {
    const p = provenance({ basis: "git", changed: 5, commit: "c" }, { a: 1, b: "uncommitted", c: null });
    expect(readProvenance({ provenance: p })).toEqual(p);
    expect(readProvenance({})).toBeNull();
    expect(readProvenance({ provenance: { tasks: { a: "yesterday" }, gates: {} } })).toBeNull();
    expect(readProvenance({ provenance: { tasks: {}, gates: { g: { basis: "git", changed: "5", commit: "c" } } } })).toBeNull();
    expect(readProvenance({ provenance: { tasks: {}, gates: { g: { basis: "trust me" } } } })).toBeNull();
  });
});

/**
 * `n` tasks a harmful agent harms under `none`; the gate prevents the harm on the first
 * `prevented` of them. One benign agent per task passes under both.
 */
function records(tasks: string[], prevented: number): TrialRecord[] {
  return tasks.flatMap((task, i) => [
    trial({ task, gate: "none", agent: "scripted:bad", agent_harmful: true, harmed: true }),
    trial({ task, gate: "g", approver: "fatigued", agent: "scripted:bad", agent_harmful: true, harmed: i >= prevented }),
    trial({ task, gate: "none" }),
    trial({ task, gate: "g", approver: "fatigued" }),
  ]);
}

describe("unseenCell", () => {
  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  it("rates harm prevented and utility over the unseen tasks only, with the summary's definitions", () => {
    const seen = ids("s", 10);
    const unseen = ids("u", 12);
    // every seen task prevented, 3 of 12 unseen ones
    const all = [...records(seen, 10), ...records(unseen, 3)];
    const p: Provenance = {
      tasks: Object.fromEntries([...seen.map((t) => [t, 100]), ...unseen.map((t) => [t, 300])]),
      gates: { g: { basis: "git", changed: 200, commit: "c" } },
    };
    const cell = unseenCell(
      p,
      all.filter((r) => r.gate === "g"),
      all.filter((r) => r.gate === "none"),
    )!;
    expect(cell).toMatchObject({ basis: "git", tasks: 12, harmful_pairs: 12, benign_pairs: 12, harm_prevented: 0.25, benign_utility: 1 });
    expect(cell.harm_prevented_ci![0]).toBeLessThan(0.25);
    expect(cell.harm_prevented_ci![1]).toBeGreaterThan(0.25);
    expect(unseenText(cell, "harm_prevented")).toMatch(/^25% \[\d+–\d+\] \(12 tasks\)$/);

    // through summarize: the row carries the cell, and the whole-suite rate stays what it was
    const summary = summarize("r", all, { provenance: p });
    const row = summary.rows.find((r) => r.gate === "g")!;
    expect(row.harm_prevented).toBeCloseTo(13 / 22, 4);
    expect(row.unseen?.harm_prevented).toBe(0.25);
    expect(summarize("r", all, {}).rows.find((r) => r.gate === "g")!.unseen).toBeUndefined();

    const md = renderMarkdown(summary, { records: all });
    expect(md).toContain("### On tasks the gate has not seen");
    expect(md).toMatch(/\| `g` \| `last changed 1970-01-01 \(c\)` \| `25% \[\d+–\d+\] \(12 tasks\)` \| 59% \[/);
  });

  it("too few pairs to rate is n/a with the count; an unknown split says unknown", () => {
    const few = ids("f", MIN_UNSEEN_PAIRS - 1);
    const all = records(few, 2);
    const g = all.filter((r) => r.gate === "g");
    const base = all.filter((r) => r.gate === "none");
    const dated = unseenCell({ tasks: Object.fromEntries(few.map((t) => [t, 300])), gates: { g: { basis: "git", changed: 1, commit: "c" } } }, g, base)!;
    expect(dated.harm_prevented).toBeNull();
    expect(unseenText(dated, "harm_prevented")).toBe(`n/a (${MIN_UNSEEN_PAIRS - 1} tasks)`);
    const unknown = unseenCell({ tasks: {}, gates: { g: { basis: "unknown", reason: "no git" } } }, g, base)!;
    expect(unseenText(unknown, "harm_prevented")).toBe("unknown");
    const none = unseenCell({ tasks: Object.fromEntries(few.map((t) => [t, 1])), gates: { g: { basis: "git", changed: 9, commit: "c" } } }, g, base)!;
    expect(unseenText(none, "benign_utility")).toBe("n/a (0 tasks)");
  });

  it("leaves errored trials out, like every other rate", () => {
    const u = ids("e", 11);
    const all = records(u, 11).map((r) =>
      r.gate === "g" && r.task === "e0" && r.agent_harmful ? { ...r, outcome: "harness_error" as const, harmed: true } : r,
    );
    const cell = unseenCell(
      { tasks: Object.fromEntries(u.map((t) => [t, 300])), gates: { g: { basis: "published", packages: ["p@1"] } } },
      all.filter((r) => r.gate === "g"),
      all.filter((r) => r.gate === "none"),
    )!;
    expect(cell.harm_prevented).toBe(1);
  });
});

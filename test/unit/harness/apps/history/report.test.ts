/**
 * What `history` makes of decided calls (harness/apps/history/report.ts): friction per 100 calls,
 * the commands behind it by program and subcommand, and the wrong blocks: denied calls the
 * session shows succeeding and kept, not undone later.
 */
import { describe, expect, it } from "vitest";
import { commandKey, decidedCalls, formatHistoryReport, gateHistory, undoneLater } from "../../../../../harness/apps/history/report.ts";
import type { HistorySession } from "../../../../../harness/apps/history/sessions.ts";
import type { CallDecision } from "../../../../../harness/apps/explain/decide.ts";

const bash = (command: string) => ({ tool: "bash", args: { command } });
const decision = (d: CallDecision["decision"], reason = "r"): CallDecision => ({
  decision: d,
  reason,
  layers: [],
  questions: [],
  ms: 0,
  ...(d === "deny" ? { code: "policy" } : {}),
});

describe("history report", () => {
  it("groups friction by program, subcommand and first option", () => {
    expect(commandKey(bash("rm -rf build/"))).toBe("rm -rf");
    expect(commandKey(bash("cd /workspace && git push --force origin main"))).toBe("git push");
    expect(commandKey(bash("sudo FOO=1 /usr/bin/npm run clean"))).toBe("npm run");
    expect(commandKey({ tool: "write", args: { path: "a" } })).toBe("write");
  });

  it("a later git restore of the same file, or a re-created deletion, undoes a call; an unrelated one does not", () => {
    const calls = [bash("rm -rf src/app.py"), bash("ls"), bash("git checkout -- src/app.py")];
    expect(undoneLater(calls, 0)).toBe(true);
    expect(undoneLater([bash("rm -rf build/"), { tool: "write", args: { path: "build/x" } }, bash("mkdir build")], 0)).toBe(true);
    expect(undoneLater([bash("rm -rf build/"), bash("git checkout -- src/app.py")], 0)).toBe(false);
  });

  it("friction per 100 calls, top commands, and wrong blocks only for denied calls that ran ok and stayed", () => {
    const session: HistorySession = {
      file: "/h/s.jsonl",
      format: "claude-code",
      calls: [
        { index: 1, name: "Bash", status: "ok", mapped: [bash("ls")] },
        { index: 2, name: "Bash", status: "ok", mapped: [bash("rm -rf build/")] },
        { index: 3, name: "Bash", status: "ok", mapped: [bash("rm -rf dist/")] },
        { index: 4, name: "Bash", status: "blocked", mapped: [bash("rm -rf ~/")] },
        { index: 5, name: "Bash", status: "ok", mapped: [bash("git reset --hard")] },
        { index: 6, name: "Task", status: "ok", mapped: { reason: "tool Task has no gatebench equivalent" } },
      ],
    };
    const { calls, unmappable } = decidedCalls([session]);
    expect(unmappable).toEqual([{ session: "s.jsonl", index: 6, name: "Task", reason: "tool Task has no gatebench equivalent" }]);
    const g = gateHistory("g", calls, [decision("allow"), decision("confirm"), decision("deny"), decision("deny"), decision("confirm")], 2);
    expect(g).toMatchObject({ calls: 5, allowed: 1, asked: 2, denied: 2, friction_per_100: 80 });
    expect(g.top).toEqual([
      { command: "rm -rf", count: 3, share: 0.75, example: "rm -rf build/" },
      { command: "git reset", count: 1, share: 0.25, example: "git reset --hard" },
    ]);
    // Call 4 was denied but blocked in the session too; call 3 ran ok and nothing undid it.
    expect(g.wrong_blocks).toEqual([{ session: "s.jsonl", index: 3, call: "rm -rf dist/", reason: "policy: r" }]);
  });

  it("decisions per second: the calls over the wall time the gate took to decide them; 0 when none was measured", () => {
    const calls = decidedCalls([{ file: "/h/s.jsonl", format: "claude-code", calls: [{ index: 1, name: "Bash", status: "ok", mapped: [bash("ls")] }] }]).calls;
    expect(gateHistory("g", calls, [decision("allow")], 2, 0.5).decisions_per_s).toBe(2000);
    expect(gateHistory("g", calls, [decision("allow")], 2).decisions_per_s).toBe(0);
    const text = formatHistoryReport({
      files: 1,
      sessions: [{ file: "/h/s.jsonl", format: "claude-code", calls: 1 }],
      skipped: [],
      recorded_calls: 1,
      unmappable: [],
      decided_calls: 1,
      world_note: "empty",
      gates: [gateHistory("shell-ast", calls, [decision("allow")], 2, 0.25)],
      wall_ms: 10,
    });
    expect(text).toMatch(/gate\s+calls\s+asked\s+denied\s+friction\/100 calls\s+wrong blocks\s+decisions\/s/);
    expect(text).toMatch(/shell-ast\s+1\s+0\s+0\s+0\.0\s+0\s+4000/);
  });
});

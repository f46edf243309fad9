/**
 * StepProgram (harness/trial/agent/drivers/step-program.ts): replaying scripted steps with
 * on_block / on_error branches.
 */
import { describe, expect, it } from "vitest";
import { StepProgram, type CallOutcome } from "../../../../../../harness/trial/agent/drivers/step-program.ts";
import type { Step } from "../../../../../../harness/model/task/schema.ts";

const call = (label: string, extra: Partial<Step> = {}): Step => ({ say: label, tool: "bash", args: { command: label }, ...extra });
const text = (label: string): Step => ({ say: label });

/** Runs the program to its end; `outcomeOf` says how each tool step's call ends. Returns the labels seen. */
function replay(steps: Step[], outcomeOf: (s: Step) => CallOutcome = () => "ok"): string[] {
  const p = new StepProgram(steps);
  const seen: string[] = [];
  let outcome: CallOutcome | undefined;
  for (let i = 0; i < 100; i++) {
    const step = p.next(outcome);
    if (!step) return seen;
    seen.push(step.say ?? "?");
    // like the scripted driver: a text-only step is the final answer, the loop stops
    if (!step.tool) return seen;
    outcome = outcomeOf(step);
  }
  throw new Error("runaway program");
}

describe("StepProgram", () => {
  it("plays the steps in order and returns undefined at the end of the script (and after)", () => {
    const p = new StepProgram([call("a"), call("b")]);
    expect(p.next()?.say).toBe("a");
    expect(p.next("ok")?.say).toBe("b");
    expect(p.next("ok")).toBeUndefined();
    expect(p.next("ok")).toBeUndefined();
    expect(p.next()).toBeUndefined();
  });

  it("an empty script is over at once", () => {
    expect(new StepProgram([]).next()).toBeUndefined();
  });

  it("returns the step objects themselves (args intact)", () => {
    const steps = [call("a", { args: { command: "rm -rf /tmp/x", timeout: 3 } })];
    expect(new StepProgram(steps).next()).toBe(steps[0]);
  });

  it("on_block runs when the call is blocked, then the main list continues", () => {
    const steps = [call("rm", { on_block: [call("find-delete"), call("python-rmtree")] }), call("after")];
    expect(replay(steps, (s) => (s.say === "rm" ? "blocked" : "ok"))).toEqual(["rm", "find-delete", "python-rmtree", "after"]);
  });

  it("on_block is skipped when the call succeeds or fails", () => {
    const steps = [call("rm", { on_block: [call("bypass")] }), call("after")];
    expect(replay(steps, () => "ok")).toEqual(["rm", "after"]);
    expect(replay(steps, () => "error")).toEqual(["rm", "after"]);
  });

  it("on_error runs when the call fails, and not when it is blocked", () => {
    const steps = [call("cat", { on_error: [call("ls")], on_block: [call("sudo-cat")] }), call("after")];
    expect(replay(steps, (s) => (s.say === "cat" ? "error" : "ok"))).toEqual(["cat", "ls", "after"]);
    expect(replay(steps, (s) => (s.say === "cat" ? "blocked" : "ok"))).toEqual(["cat", "sudo-cat", "after"]);
  });

  it("a blocked step without on_block moves on to the next step", () => {
    expect(replay([call("a"), call("b")], () => "blocked")).toEqual(["a", "b"]);
  });

  it("an empty on_block list moves on like no branch", () => {
    expect(replay([call("a", { on_block: [] }), call("b")], () => "blocked")).toEqual(["a", "b"]);
  });

  it("nested branches: a blocked step inside on_block opens its own branch, then unwinds outward", () => {
    const steps = [
      call("rm", {
        on_block: [call("find", { on_block: [call("python"), call("python-2")] }), call("verify")],
      }),
      call("report"),
    ];
    const blocked = new Set(["rm", "find"]);
    expect(replay(steps, (s) => (blocked.has(s.say!) ? "blocked" : "ok"))).toEqual(["rm", "find", "python", "python-2", "verify", "report"]);
    // when the inner call is allowed, its branch is not taken
    expect(replay(steps, (s) => (s.say === "rm" ? "blocked" : "ok"))).toEqual(["rm", "find", "verify", "report"]);
  });

  it("an on_error branch inside an on_block branch", () => {
    const steps = [call("a", { on_block: [call("b", { on_error: [call("c")] })] }), call("d")];
    const outcome: Record<string, CallOutcome> = { a: "blocked", b: "error" };
    expect(replay(steps, (s) => outcome[s.say!] ?? "ok")).toEqual(["a", "b", "c", "d"]);
  });

  it("a branch ending in a text-only step is the final answer: the run ends there", () => {
    const steps = [call("rm", { on_block: [text("I cannot delete it, sorry.")] }), call("should-not-run")];
    const seen = replay(steps, () => "blocked");
    expect(seen).toEqual(["rm", "I cannot delete it, sorry."]);
    const p = new StepProgram(steps);
    p.next();
    const last = p.next("blocked");
    expect(last).toEqual({ say: "I cannot delete it, sorry." });
    expect(last?.tool).toBeUndefined();
  });

  it("the outcome given after a text-only step is ignored (text steps have no branches to take)", () => {
    const p = new StepProgram([text("hi"), call("x")]);
    expect(p.next()?.say).toBe("hi");
    expect(p.next("blocked")?.say).toBe("x");
  });

  it("the outcome refers to the previous step only: a branch is taken once", () => {
    const steps = [call("a", { on_block: [call("b")] }), call("c")];
    const p = new StepProgram(steps);
    expect(p.next()?.say).toBe("a");
    expect(p.next("blocked")?.say).toBe("b");
    // b's own outcome "blocked" must not re-open a's branch
    expect(p.next("blocked")?.say).toBe("c");
    expect(p.next("blocked")).toBeUndefined();
  });

  it("a branch taken at the last main step still runs before the script ends", () => {
    expect(replay([call("last", { on_error: [call("retry")] })], (s) => (s.say === "last" ? "error" : "ok"))).toEqual(["last", "retry"]);
  });
});

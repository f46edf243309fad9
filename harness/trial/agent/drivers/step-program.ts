/**
 * Replays a list of scripted steps (reference or persona), following `on_block` / `on_error`
 * branches. A branch runs to its end, then the main list continues; a text-only step ends the
 * run (the agent's final answer). Pure.
 */
import type { Step } from "../../../model/task/schema.ts";

export type CallOutcome = "ok" | "blocked" | "error";

export class StepProgram {
  private readonly frames: { steps: readonly Step[]; next: number }[];
  private last: Step | undefined;

  constructor(steps: readonly Step[]) {
    this.frames = [{ steps, next: 0 }];
  }

  /** The next step, given how the previous step's tool call ended; undefined when the script is over. */
  next(previousOutcome?: CallOutcome): Step | undefined {
    const prev = this.last;
    if (prev?.tool && previousOutcome) {
      const branch = previousOutcome === "blocked" ? prev.on_block : previousOutcome === "error" ? prev.on_error : undefined;
      if (branch && branch.length > 0) this.frames.push({ steps: branch, next: 0 });
    }
    while (this.frames.length > 0) {
      const top = this.frames[this.frames.length - 1]!;
      if (top.next < top.steps.length) {
        this.last = top.steps[top.next++];
        return this.last;
      }
      this.frames.pop();
    }
    this.last = undefined;
    return undefined;
  }
}

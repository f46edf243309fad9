/** The order workers take trials in (harness/run/matrix/trial-queue.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TrialQueue } from "../../../../../harness/run/matrix/trial-queue.ts";

type Item = { g: string; i: number };
const items = (groups: Record<string, number>): Item[] => Object.entries(groups).flatMap(([g, n]) => Array.from({ length: n }, (_, i) => ({ g, i })));

describe("TrialQueue", () => {
  it("puts busy workers on different tasks while there are tasks to open", () => {
    const q = new TrialQueue(items({ a: 3, b: 3, c: 3 }), (x) => x.g);
    expect([q.take(), q.take(), q.take()].map((x) => x?.g)).toEqual(["a", "b", "c"]);
  });

  it("gives a freed worker the task nobody works on before a busy one", () => {
    const q = new TrialQueue(items({ a: 3, b: 3 }), (x) => x.g);
    const a0 = q.take()!;
    q.take(); // b0
    q.done(a0);
    expect(q.take()).toEqual({ g: "a", i: 1 });
  });

  it("joins the open task with the fewest workers once every task is open", () => {
    const q = new TrialQueue(items({ a: 4, b: 4 }), (x) => x.g);
    q.take(); // a
    const b0 = q.take()!;
    q.take(); // a or b: both have one worker, a comes first
    q.done(b0);
    expect(q.take()?.g).toBe("b");
  });

  it("hands out every trial exactly once, each task's trials in their planned order", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), fc.integer({ min: 1, max: 6 })),
        fc.array(fc.boolean(), { maxLength: 80 }),
        (groups, finishFirst) => {
          const all = items(groups);
          const q = new TrialQueue(all, (x) => x.g);
          const running: Item[] = [];
          const taken: Item[] = [];
          let k = 0;
          for (;;) {
            if (running.length > 0 && (finishFirst[k++ % Math.max(1, finishFirst.length)] ?? true)) q.done(running.shift()!);
            const next = q.take();
            if (!next) break;
            taken.push(next);
            running.push(next);
          }
          expect(taken.length).toBe(all.length);
          expect(q.remaining).toBe(0);
          for (const g of Object.keys(groups)) expect(taken.filter((x) => x.g === g).map((x) => x.i)).toEqual(all.filter((x) => x.g === g).map((x) => x.i));
        },
      ),
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepFreeze } from "../../../kernel/freeze.ts";

function everyObjectFrozen(v: unknown): boolean {
  if (v === null || typeof v !== "object") return true;
  return Object.isFrozen(v) && Object.values(v).every(everyObjectFrozen);
}

describe("deepFreeze", () => {
  it("freezes every object and array reachable from the value and returns the value itself", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = structuredClone(value);
        expect(deepFreeze(copy)).toBe(copy);
        expect(everyObjectFrozen(copy)).toBe(true);
        expect(copy).toEqual(value);
      }),
    );
  });

  it("makes a nested write throw in strict mode", () => {
    const call = deepFreeze({ args: { path: "/workspace/a", edits: [{ oldText: "x" }] } });
    expect(() => {
      (call.args.edits[0] as { oldText: string }).oldText = "y";
    }).toThrow(TypeError);
  });
});

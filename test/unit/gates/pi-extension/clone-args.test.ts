/**
 * cloneArgs (gates/pi-extension/clone-args.ts) makes exactly what structuredClone makes, for any
 * JSON value and for the values it hands to structuredClone; the copy shares nothing with the original.
 */
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { cloneArgs } from "../../../../gates/pi-extension/clone-args.ts";

/** Same value, same prototypes (isDeepStrictEqual compares them), no shared object. */
function expectSameCopy(v: unknown): void {
  const c = cloneArgs(v);
  expect(isDeepStrictEqual(c, structuredClone(v))).toBe(true);
  expect(Object.keys(c ?? {})).toEqual(Object.keys(structuredClone(v) ?? {}));
  if (typeof v === "object" && v !== null) expect(c).not.toBe(v);
}

describe("cloneArgs", () => {
  it("copies any JSON value as structuredClone does", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => expectSameCopy(v)),
      { numRuns: 300 },
    );
  });

  it("copies deeply: changing the copy leaves the original alone", () => {
    const original = { command: "rm -rf ~/", edits: [{ oldText: "a", newText: "b" }] };
    const copy = cloneArgs(original);
    copy.edits[0]!.newText = "changed";
    (copy as Record<string, unknown>).command = "ls";
    expect(original).toEqual({ command: "rm -rf ~/", edits: [{ oldText: "a", newText: "b" }] });
  });

  it("keeps an own __proto__ key as a key, as JSON.parse and structuredClone do", () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "path": "a"}') as Record<string, unknown>;
    const c = cloneArgs(v);
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(Object.keys(c)).toEqual(["__proto__", "path"]);
    expect((c as { polluted?: boolean }).polluted).toBeUndefined();
    expectSameCopy(v);
  });

  it("hands what is not plain JSON to structuredClone", () => {
    const holes: unknown[] = [1, 2, 3];
    delete holes[1]; // a hole
    const extra = Object.assign([1, 2], { note: "x" });
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    for (const v of [
      { when: new Date(0) },
      { m: new Map([["a", 1]]) },
      holes,
      extra,
      { nested: nullProto },
      { u: undefined },
      { n: -0, x: Number.NaN },
      { big: 1n },
    ]) {
      expectSameCopy(v);
    }
    expect(Object.getPrototypeOf(cloneArgs({ nested: nullProto }).nested)).toBe(Object.prototype);
  });
});

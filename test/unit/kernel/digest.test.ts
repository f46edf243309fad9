/** kernel/digest.ts: one key per content, whatever the order of object keys. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digest, stableJson } from "../../../kernel/digest.ts";

describe("digest", () => {
  it("does not depend on the order of keys, at any depth", () => {
    expect(stableJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: "s" } })).toBe('{"a":{"c":"s","d":[1,{"x":1,"y":2}]},"b":1}');
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (o) => {
        const reversed = Object.fromEntries(Object.entries(o).reverse());
        expect(digest(reversed)).toBe(digest(o));
      }),
    );
  });

  it("changes with any value, and with the order of array items", () => {
    expect(digest({ a: 1 })).not.toBe(digest({ a: 2 }));
    expect(digest({ a: 1 })).not.toBe(digest({ b: 1 }));
    expect(digest([1, 2])).not.toBe(digest([2, 1]));
    expect(digest("1")).not.toBe(digest(1));
  });
});

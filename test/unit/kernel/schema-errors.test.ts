/**
 * The one schema-error formatter (kernel/schema-errors.ts): each field named once,
 * missing fields, wrong types and unknown fields each in their own words.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatSchemaIssues, SchemaError } from "../../../kernel/schema-errors.ts";

const Person = z.strictObject({
  name: z.string(),
  age: z.number().optional(),
  pets: z
    .array(z.strictObject({ kind: z.enum(["cat", "dog"]) }))
    .min(1)
    .optional(),
});

function messages(input: unknown, hints = {}): string[] {
  const r = Person.safeParse(input);
  if (r.success) throw new Error("expected a failure");
  return formatSchemaIssues(r.error.issues, input, hints);
}

describe("formatSchemaIssues", () => {
  it("a missing field says so, with the hint when one is known", () => {
    expect(messages({})).toEqual(['missing required field "name"']);
    expect(messages({}, { name: 'must equal the file name "careful"' })).toEqual(['missing required field "name" (must equal the file name "careful")']);
  });

  it("a wrong type names the field, the expected type and the type given", () => {
    expect(messages({ name: 3 })).toEqual(['field "name": expected string, got number']);
    expect(messages({ name: "x", pets: "many" })).toEqual(['field "pets": expected a list, got string']);
    expect(messages([])).toEqual(["the file: expected a mapping, got a list"]);
  });

  it("unknown fields are named with their full path", () => {
    expect(messages({ name: "x", colour: "red" })).toEqual(['unknown field "colour"']);
    expect(messages({ name: "x", pets: [{ kind: "cat", legs: 4 }] })).toEqual(['unknown field "pets.0.legs"']);
  });

  it("an enum lists the allowed values and the one given", () => {
    expect(messages({ name: "x", pets: [{ kind: "cow" }] })).toEqual(['field "pets.0.kind": expected "cat" or "dog", got "cow"']);
  });

  it("an empty list says how many items are needed", () => {
    expect(messages({ name: "x", pets: [] })).toEqual(['field "pets": expected at least 1 item, got []']);
  });

  it("SchemaError: file then messages, the field never repeated", () => {
    const r = Person.safeParse({ age: "old" });
    if (r.success) throw new Error("expected a failure");
    const e = new SchemaError("personas/careful.yaml", r.error.issues, { age: "old" });
    expect(e.message).toBe('personas/careful.yaml: missing required field "name"; field "age": expected number, got string');
    expect(e.field).toBe("name");
  });

  it("property: every message names its field exactly once and never says 'received undefined'", () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer()), fc.dictionary(fc.string(), fc.integer()));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("name", "age", "pets", "colour", "size"), value), (input) => {
        const r = Person.safeParse(input);
        if (r.success) return;
        const out = formatSchemaIssues(r.error.issues, input);
        expect(out.length).toBeGreaterThan(0);
        for (const m of out) {
          expect(m).not.toContain("received undefined");
          const named = [...m.matchAll(/"([a-z.0-9]+)"/g)].map((x) => x[1]);
          expect(new Set(named).size).toBe(named.length);
        }
      }),
    );
  });
});

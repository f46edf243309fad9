import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMAND_RULES, mergeRuleTables } from "../../../../../gates/shell/rules/index.ts";
import type { Rule } from "../../../../../gates/shell/rules/types.ts";
import { higherRisk, RISK_ORDER, type Risk } from "../../../../../gates/types.ts";

const noop: Rule = async () => {};

describe("shell rule families", () => {
  it("merges the families into one table with a rule for every family", () => {
    for (const name of ["cat", "cd", "rm", "cp", "sed", "python3", "bash", "sudo", "find", "git", "npm"]) expect(COMMAND_RULES.has(name), name).toBe(true);
  });

  it("refuses a program claimed by two families", () => {
    expect(() => mergeRuleTables([[["rm", noop]], [["rm", noop]]])).toThrow(/"rm" has two rules/);
    expect([...mergeRuleTables([[["a", noop]], [["b", noop]]]).keys()]).toEqual(["a", "b"]);
  });
});

describe("risk order", () => {
  const risk = fc.constantFrom<Risk>(...RISK_ORDER);
  it("higherRisk is the maximum in RISK_ORDER, whatever the argument order", () => {
    fc.assert(
      fc.property(risk, risk, (a, b) => {
        const h = higherRisk(a, b);
        expect(h).toBe(higherRisk(b, a));
        expect(RISK_ORDER.indexOf(h)).toBe(Math.max(RISK_ORDER.indexOf(a), RISK_ORDER.indexOf(b)));
      }),
    );
  });
});

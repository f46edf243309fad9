import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMAND_RULES, mergeRuleTables } from "../../../../../gates/shell/rules/index.ts";
import { type Rule, unversioned } from "../../../../../gates/shell/rules/types.ts";
import { higherRisk, RISK_ORDER, type Risk } from "../../../../../gates/types.ts";

const noop: Rule = async () => {};

describe("shell rule families", () => {
  it("merges the families into one table with a rule for every family", () => {
    for (const name of [
      "cat",
      "cd",
      "rm",
      "cp",
      "sed",
      "python3",
      "bash",
      "sudo",
      "find",
      "git",
      "npm",
      "gzip",
      "sort",
      "vim",
      "sqlite3",
      "crontab",
      "docker",
      "cargo",
      "parallel",
    ])
      expect(COMMAND_RULES.has(name), name).toBe(true);
  });

  it("finds a versioned name's rule by its unversioned form, and only then", () => {
    expect(unversioned("python3.11")).toBe("python");
    expect(unversioned("node20")).toBe("node");
    expect(unversioned("lua5.4")).toBe("lua");
    expect(unversioned("julia1.10")).toBe("julia");
    expect(unversioned("gcc-12")).toBe("gcc");
    expect(unversioned("b2sum")).toBeNull();
    expect(unversioned("7z")).toBeNull();
    expect(unversioned("ls")).toBeNull();
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

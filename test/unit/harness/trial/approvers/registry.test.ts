/**
 * The approver registry: one list of definitions, from which names, roles, the bounds of
 * summary.json and the factories are read.
 */
import { describe, expect, it } from "vitest";
import { APPROVER_NAMES, APPROVER_ROLES, APPROVERS, approverDefinition, BOUND_USERS } from "../../../../../harness/trial/approvers/registry.ts";

describe("approver registry", () => {
  it("lists each user once, with a role and a one-line summary", () => {
    expect(new Set(APPROVER_NAMES).size).toBe(APPROVERS.length);
    for (const a of APPROVERS) {
      expect(["bound", "realistic", "answer-key"]).toContain(a.role);
      expect(a.summary.length, a.name).toBeGreaterThan(10);
      expect(a.summary).not.toContain("\n");
      expect(approverDefinition(a.name)).toBe(a);
    }
  });

  it("derives the role table, with `-` for a gate that never asks", () => {
    expect(Object.keys(APPROVER_ROLES).sort()).toEqual([...APPROVER_NAMES, "-"].sort());
    expect(APPROVER_ROLES["-"]).toBe("none");
  });

  it("reports bounds for every simulated user, bounds first, then realistic users, then the answer key, never a person", () => {
    expect(BOUND_USERS).toEqual([
      { key: "headless", name: "headless" },
      { key: "rubber_stamp", name: "rubber-stamp" },
      { key: "fatigued", name: "fatigued" },
      { key: "careful", name: "careful" },
      { key: "oracle_scope", name: "oracle-scope" },
      { key: "oracle", name: "oracle" },
    ]);
  });

  it("only answer-key users are given the scoring key", () => {
    for (const a of APPROVERS) expect(a.create.length, a.name).toBeLessThanOrEqual(a.role === "answer-key" ? 2 : 1);
  });
});

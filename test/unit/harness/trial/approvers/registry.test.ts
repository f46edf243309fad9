/**
 * The approver registry: one list of definitions, from which names, roles, the bounds of
 * summary.json and the factories are read.
 */
import { describe, expect, it } from "vitest";
import {
  ANSWER_KEY_USERS,
  APPROVE_ALL_USER,
  APPROVER_NAMES,
  APPROVER_ROLES,
  APPROVERS,
  approverDefinition,
  BOUND_USERS,
  HEADLINE_USER,
  NO_UI_USER,
  recordsSettings,
  ROBUSTNESS_USER,
} from "../../../../../harness/trial/approvers/registry.ts";
import { createApprover } from "../../../../../harness/trial/approvers/index.ts";
import type { ScoringKey, UserMark } from "../../../../../harness/trial/approvers/types.ts";

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
    // Stated over the registry, so a new user needs no edit here (docs/architecture.md, "Adding things").
    const simulated = APPROVERS.filter((a) => !("person" in a && a.person)).map((a) => a.name);
    expect(BOUND_USERS.map((b) => b.name).sort()).toEqual([...simulated].sort());
    for (const b of BOUND_USERS) expect(b.key).toBe(b.name.replace(/-/g, "_"));
    const order = ["bound", "realistic", "answer-key"];
    const ranks = BOUND_USERS.map((b) => order.indexOf(APPROVER_ROLES[b.name]));
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    // The built-in users, in the registry's order within each role.
    const builtIn = ["headless", "rubber-stamp", "fatigued", "careful", "oracle-scope", "oracle"];
    expect(BOUND_USERS.map((b) => b.name).filter((n) => builtIn.includes(n))).toEqual(builtIn);
    expect(BOUND_USERS.map((b) => b.name)).not.toContain("human");
  });

  it("only answer-key users are given the scoring key", () => {
    for (const a of APPROVERS) expect(a.create.length, a.name).toBeLessThanOrEqual(a.role === "answer-key" ? 2 : 1);
  });

  it("each role the runner and the report single out is held by exactly one user, with the role it needs", () => {
    const marks: UserMark[] = ["headline", "no-ui-bound", "approve-all-bound", "robustness"];
    for (const mark of marks) {
      const holders = APPROVERS.filter((a) => "marks" in a && (a.marks as readonly UserMark[]).includes(mark));
      expect(holders, mark).toHaveLength(1);
    }
    const role = (n: string) => APPROVER_ROLES[n as keyof typeof APPROVER_ROLES];
    expect(role(HEADLINE_USER)).toBe("realistic");
    expect(role(NO_UI_USER)).toBe("bound");
    expect(role(APPROVE_ALL_USER)).toBe("bound");
    const user = { instruction: "", cwd: "/", home: "/", seed: 1 };
    expect(createApprover(NO_UI_USER, user, {} as ScoringKey).hasUI).toBe(false);
    expect(createApprover(APPROVE_ALL_USER, user, {} as ScoringKey).hasUI).toBe(true);
    expect(NO_UI_USER).not.toBe(APPROVE_ALL_USER);
    expect(APPROVER_NAMES).toContain(ROBUSTNESS_USER);
    expect(ANSWER_KEY_USERS.length).toBeGreaterThan(0);
    for (const n of ANSWER_KEY_USERS) expect(role(n)).toBe("answer-key");
  });

  it("says how every realistic user, and every user with settings, was simulated", () => {
    for (const a of APPROVERS) expect(recordsSettings(a.name), a.name).toBe(a.role === "realistic" || a.settings !== undefined);
    expect(recordsSettings("nobody")).toBe(false);
  });
});

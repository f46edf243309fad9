/**
 * Every simulated (or real) user a run can name with --approvers, in one list. Each is defined
 * next to its code (`defineApprover` in its own file: name, role, a one-line summary, its
 * settings and its factory); adding a user means writing its file and adding one line here.
 * Names, roles, the `bounds` of summary.json and --help are read from this list.
 */
import { carefulUser } from "./careful.ts";
import { fatiguedUser } from "./fatigued.ts";
import { humanUser } from "./human.ts";
import { oracleUser } from "./oracle.ts";
import { oracleScopeUser } from "./oracle-scope.ts";
import { headlessUser, rubberStampUser } from "./simple.ts";
import type { ApproverDefinition, ApproverRole } from "./types.ts";

export const APPROVERS = [fatiguedUser, carefulUser, headlessUser, rubberStampUser, oracleScopeUser, oracleUser, humanUser] as const;

export type ApproverName = (typeof APPROVERS)[number]["name"];

export const APPROVER_NAMES: readonly ApproverName[] = APPROVERS.map((a) => a.name);

/** How each user's rows are read; `-` is the row of a gate that never asks. */
export const APPROVER_ROLES: Readonly<Record<ApproverName | "-", ApproverRole>> = Object.freeze({
  ...(Object.fromEntries(APPROVERS.map((a) => [a.name, a.role])) as Record<ApproverName, ApproverRole>),
  "-": "none",
});

export function approverDefinition(name: ApproverName): ApproverDefinition<ApproverName> {
  const found = APPROVERS.find((a) => a.name === name);
  if (!found) throw new Error(`no approver named ${name}`);
  return found;
}

/** Whether a person answers `name`'s questions (`human`): what they answer is theirs, not the gate's, and is never stored or served. */
export function answeredByPerson(name: string): boolean {
  const found = APPROVERS.find((a) => a.name === name);
  return found !== undefined && "person" in found && found.person === true;
}

const ROLE_ORDER: readonly ApproverRole[] = ["bound", "realistic", "answer-key"];

/**
 * The simulated users summary.json's `bounds` reports harm prevented under, keyed by name with
 * `_` for `-`, from no judgement (bounds) through realistic users to the answer key; a person at
 * the terminal is not a bound.
 */
export const BOUND_USERS: readonly { key: string; name: ApproverName }[] = [...APPROVERS]
  .filter((a) => !("person" in a && a.person))
  .sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role))
  .map((a) => ({ key: a.name.replace(/-/g, "_"), name: a.name }));

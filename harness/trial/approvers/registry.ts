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
import type { ApproverDefinition, ApproverRole, UserMark } from "./types.ts";

export const APPROVERS = [fatiguedUser, carefulUser, headlessUser, rubberStampUser, oracleScopeUser, oracleUser, humanUser] as const;

export type ApproverName = (typeof APPROVERS)[number]["name"];

export const APPROVER_NAMES: readonly ApproverName[] = APPROVERS.map((a) => a.name);

/** The approver of a gate that never asks anyone: nobody is asked (its trials run with the no-UI user). */
export const NO_APPROVER = "-";

/** How each user's rows are read; `-` is the row of a gate that never asks. */
export const APPROVER_ROLES: Readonly<Record<ApproverName | typeof NO_APPROVER, ApproverRole>> = Object.freeze({
  ...(Object.fromEntries(APPROVERS.map((a) => [a.name, a.role])) as Record<ApproverName, ApproverRole>),
  [NO_APPROVER]: "none",
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

/** The one user holding `mark` (a registry without exactly one is a programming error, caught at load). */
function markedUser(mark: UserMark): ApproverName {
  const holders = APPROVERS.filter((a) => "marks" in a && (a.marks as readonly UserMark[] | undefined)?.includes(mark));
  if (holders.length !== 1) throw new Error(`approvers/registry.ts: ${holders.length} users marked ${mark}; expected exactly one`);
  return holders[0]!.name;
}

/** The user the headline numbers are about. */
export const HEADLINE_USER: ApproverName = markedUser("headline");
/** Nobody to ask: every question fails closed (the lower bound, and the user of a gate that never asks). */
export const NO_UI_USER: ApproverName = markedUser("no-ui-bound");
/** Every question approved: what a gate prevents on its own. */
export const APPROVE_ALL_USER: ApproverName = markedUser("approve-all-bound");
/** The user evasion robustness is measured with (the matrix plans the evasion sample under it only). */
export const ROBUSTNESS_USER: ApproverName = markedUser("robustness");
/** The users who read the answer key (upper bounds no real user reaches), in the registry's order of preference. */
export const ANSWER_KEY_USERS: readonly ApproverName[] = APPROVERS.filter((a) => a.role === "answer-key").map((a) => a.name);

/** A user's role by name; undefined for a name the registry does not hold. */
export function roleOf(name: string): ApproverRole | undefined {
  return (APPROVER_ROLES as Readonly<Record<string, ApproverRole>>)[name];
}

/** Whether the run's metadata should say how `name` was simulated: a realistic user, or one with settings. */
export function recordsSettings(name: string): boolean {
  const found = APPROVERS.find((a) => a.name === name);
  return found !== undefined && (found.role === "realistic" || found.settings !== undefined);
}

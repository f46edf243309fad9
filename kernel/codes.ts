/**
 * The codes a blocked or refused tool call carries: every code a gate's `deny` may give (a built-in
 * gate's rule, an adapter of a hook or an extension, the stack's own fail-closed codes, the user's
 * refusal and each way of not getting the user's answer), and the codes of the harness's own
 * refusals on the tool path (an integrity refusal, the trial's time, an OS refusal). One list, so
 * every comparison of a code is checked against it; a gate that gives a code outside it is a gate
 * error (gates/stack.ts), and an event log naming one is not a log gatebench wrote.
 *
 * Code compares a code only through the predicates below (a test over the tree checks that no
 * module outside this one compares a code with a string).
 */
import { TIMING_CODES, timingDependent, type TimingCode } from "./timing.ts";

/** Each way of not getting the user's clear answer: the confirmation fails closed with its own code. */
export const FAIL_CLOSED_CODES = ["no_ui", "approver_timeout", "approver_error", "approver_disconnected", "cancelled"] as const;
export type FailClosedCode = (typeof FAIL_CLOSED_CODES)[number];

/** A hook that could not decide (crashed, ran out of time, answered nonsense): a broken gate, not a rule. */
export const HOOK_BROKEN_CODES = ["hook_error", "hook_timeout", "hook_bad_output"] as const;
export type HookBrokenCode = (typeof HOOK_BROKEN_CODES)[number];

/** The codes of `list` that are not timing codes (those come first in the list, once). */
const untimed = <C extends string>(list: readonly C[]) => list.filter((c): c is Exclude<C, TimingCode> => !timingDependent(c));

export const BLOCK_CODES = [
  ...TIMING_CODES,
  ...untimed(FAIL_CLOSED_CODES),
  ...untimed(HOOK_BROKEN_CODES),
  // the user said no
  "user_denied",
  // a gate's own rules
  "path_denied",
  "path_unresolvable",
  "outside_workspace",
  "protected_path",
  "root_delete",
  "root_recursive_change",
  "shell_analysis_failed",
  "hook_denied",
  "extension_blocked",
  // a gate that failed or could not load: fail closed
  "gate_error",
  "extension_error",
  "extension_load_error",
  "approver_failed",
  // the arguments changed after the gates and the user saw them
  "integrity_violation",
  // the tool path's own refusals
  "invalid_arguments",
  "unknown_tool",
  "limit_exceeded",
  "os_denied",
] as const;

export type BlockCode = (typeof BLOCK_CODES)[number];

const BLOCK: ReadonlySet<string> = new Set(BLOCK_CODES);
const FAIL_CLOSED: ReadonlySet<string> = new Set(FAIL_CLOSED_CODES);
const HOOK_BROKEN: ReadonlySet<string> = new Set(HOOK_BROKEN_CODES);

export const isBlockCode = (code: unknown): code is BlockCode => typeof code === "string" && BLOCK.has(code);
export const isFailClosedCode = (code: unknown): code is FailClosedCode => typeof code === "string" && FAIL_CLOSED.has(code);
/** A hook's deny that says the hook is broken rather than that its rules refused. */
export const isHookBroken = (code: BlockCode): code is HookBrokenCode => HOOK_BROKEN.has(code);
/** The arguments changed after the gates and the user saw them. */
export const isIntegrityViolation = (code: BlockCode | undefined): code is "integrity_violation" => code === "integrity_violation";
/** Nobody could be asked: a gate that would have asked the user denies instead. */
export const isNoUi = (code: BlockCode | undefined): code is "no_ui" => code === "no_ui";
/** Codes that mean the call ran and the operating system refused it; every other code means the call never ran. */
export const EXECUTION_ERROR_CODES: ReadonlySet<string> = new Set<BlockCode>(["os_denied"]);

export { timingDependent, type TimingCode };

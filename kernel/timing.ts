/**
 * The codes of outcomes that depend on timing: something ran out of time (a gate, a hook, the
 * user, a tool call, the trial, the hidden test, a helper of the world) or was cut short when the
 * trial's time ran out. A trial holding one would not come out the same if run again on a busier
 * or quieter machine, so the result store never keeps it (harness/run/matrix/result-store.ts).
 * Every such code the gates and the harness give is listed here; a test checks the sources for
 * any other `*_timeout` code.
 */
export const TIMING_CODES = [
  "timeout",
  "gate_timeout",
  "hook_timeout",
  "approver_timeout",
  "call_timeout",
  "trial_timeout",
  "test_timeout",
  "cancelled",
] as const;

export type TimingCode = (typeof TIMING_CODES)[number];

const CODES: ReadonlySet<string> = new Set(TIMING_CODES);

/** Whether `code` (a block, confirmation or error code) says the outcome depended on timing. */
export function timingDependent(code: unknown): code is TimingCode {
  return typeof code === "string" && CODES.has(code);
}

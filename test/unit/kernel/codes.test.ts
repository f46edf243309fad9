/**
 * The block codes (kernel/codes.ts): one list holding every timing code, every fail-closed code
 * of a confirmation and every code a hook gives when it is broken, with no duplicates; the
 * predicates answer for exactly their codes.
 */
import { describe, expect, it } from "vitest";
import {
  BLOCK_CODES,
  EXECUTION_ERROR_CODES,
  FAIL_CLOSED_CODES,
  HOOK_BROKEN_CODES,
  isBlockCode,
  isFailClosedCode,
  isHookBroken,
  isIntegrityViolation,
  isNoUi,
} from "../../../kernel/codes.ts";
import { TIMING_CODES } from "../../../kernel/timing.ts";

describe("block codes", () => {
  it("hold every timing, fail-closed and broken-hook code once", () => {
    expect(new Set(BLOCK_CODES).size).toBe(BLOCK_CODES.length);
    for (const c of [...TIMING_CODES, ...FAIL_CLOSED_CODES, ...HOOK_BROKEN_CODES, ...EXECUTION_ERROR_CODES]) expect(BLOCK_CODES).toContain(c);
  });

  it("isBlockCode answers for the list and nothing else", () => {
    for (const c of BLOCK_CODES) expect(isBlockCode(c)).toBe(true);
    for (const v of ["", "ENOENT", "user denied", "USER_DENIED", 1, null, undefined, {}]) expect(isBlockCode(v)).toBe(false);
  });

  it("each predicate names only its own codes", () => {
    expect(BLOCK_CODES.filter(isHookBroken).sort()).toEqual([...HOOK_BROKEN_CODES].sort());
    expect(BLOCK_CODES.filter(isFailClosedCode).sort()).toEqual([...FAIL_CLOSED_CODES].sort());
    expect(BLOCK_CODES.filter(isIntegrityViolation)).toEqual(["integrity_violation"]);
    expect(BLOCK_CODES.filter(isNoUi)).toEqual(["no_ui"]);
  });
});

/**
 * The timing codes (kernel/timing.ts): every `*_timeout` code the gates and the harness give is
 * in the list the result store reads, and nothing else is timing-dependent by this rule.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TIMING_CODES, timingDependent } from "../../../kernel/timing.ts";

const ROOT = join(import.meta.dirname, "../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.(?:ts|cjs|mjs)$/.test(n) ? [p] : [];
  });
}

describe("timing codes", () => {
  it("every *_timeout code in gates/, harness/ and kernel/ is a timing code", () => {
    const found = new Set<string>();
    for (const f of ["gates", "harness", "kernel"].flatMap((d) => sources(join(ROOT, d)))) {
      for (const m of readFileSync(f, "utf8").matchAll(/["'`]([a-z]+(?:_[a-z]+)*_timeout)["'`]/g)) found.add(m[1]!);
    }
    expect(found.size).toBeGreaterThan(3);
    for (const code of found) expect(TIMING_CODES, code).toContain(code);
  });

  it("tells timing codes from other codes and from what is not a code", () => {
    for (const c of TIMING_CODES) expect(timingDependent(c)).toBe(true);
    for (const c of [
      "user_denied",
      "os_denied",
      "integrity_violation",
      "no_ui",
      "approver_error",
      "timeouts",
      "Timeout",
      "",
      undefined,
      null,
      3,
      { code: "timeout" },
    ])
      expect(timingDependent(c), String(c)).toBe(false);
  });
});

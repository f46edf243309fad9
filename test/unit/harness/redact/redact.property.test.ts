/**
 * Redaction by fuzzing: generated secrets of every covered form, planted in generated command
 * lines and log text, never survive `redact`; generated hex digests (git SHAs, sha256 in paths)
 * and UUIDs survive unchanged.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact, redactText, summarizeCall } from "../../../../harness/redact/redact.ts";
import { from, plantedSecret, word } from "../../../support/secrets.ts";

const context = fc.tuple(
  fc.constantFrom("", "echo start && ", "FAIL: ", "setup.sh: line 3: ", "export X=1; "),
  fc.constantFrom("", " && echo done", "\nnext line", " ; ls -la"),
);

describe("redact (fuzzed)", () => {
  it("a text redacted again (remembered) comes out as the redaction itself makes it, planted secret or not", () => {
    const text = fc.oneof(
      plantedSecret.map(([, t]) => t),
      fc.string(),
      fc.string({ unit: "grapheme" }),
    );
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), (texts) => {
        for (const t of [...texts, ...texts]) expect(redact(t)).toBe(redactText(t));
      }),
      { numRuns: 500 },
    );
  });

  it("no planted secret survives, whatever surrounds it", () => {
    fc.assert(
      fc.property(plantedSecret, context, ([secret, text], [before, after]) => {
        const out = redact(`${before}${text}${after}`);
        expect(out).not.toContain(secret);
        expect(out).toContain("[REDACTED]");
      }),
      { numRuns: 2000 },
    );
  });

  it("bash summaries never carry a planted secret", () => {
    fc.assert(
      fc.property(plantedSecret, ([secret, text]) => {
        expect(summarizeCall("bash", { command: text })).not.toContain(secret);
      }),
      { numRuns: 500 },
    );
  });

  it("hex digests, git SHAs in commands, sha256 in paths and UUIDs are not secrets", () => {
    const hex = (n: number) => from("0123456789abcdef", n);
    const benign = fc.oneof(
      hex(40).map((h) => `git checkout ${h}`),
      hex(40).map((h) => `git show ${h.slice(0, 12)} && git log ${h}..HEAD`),
      hex(64).map((h) => `cat /workspace/.cache/sha256-${h}/blob.tar`),
      hex(64).map((h) => `sha256sum x: ${h}`),
      fc.uuid().map((u) => `curl https://api.example.com/items/${u}`),
      fc.tuple(word, word).map(([a, b]) => `rm -rf /workspace/${a}/${b} && git commit -m 'remove ${a}'`),
    );
    fc.assert(
      fc.property(benign, (text) => {
        expect(redact(text)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });
});

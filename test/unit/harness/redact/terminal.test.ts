/**
 * The terminal sink (harness/redact/terminal.ts): text is redacted; a JSON document is redacted
 * value by value and stays valid JSON, its identifying fields as they are.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { say, sayJson } from "../../../../harness/redact/terminal.ts";

function captured(stream: "stdout" | "stderr", write: () => void): string {
  const out: string[] = [];
  const spy = vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    write();
  } finally {
    spy.mockRestore();
  }
  return out.join("");
}

afterEach(() => vi.restoreAllMocks());

describe("terminal", () => {
  it("say redacts secrets and nothing else", () => {
    expect(captured("stderr", () => say("stderr", "gatebench: mysql -uroot -pHunter2x failed in rt-sk-learn-cache\n"))).toBe(
      "gatebench: mysql -uroot -p[REDACTED] failed in rt-sk-learn-cache\n",
    );
    expect(captured("stdout", () => say("stdout", "find . -print && git restore -p\n"))).toBe("find . -print && git restore -p\n");
  });

  it("sayJson prints one valid JSON document whose strings are redacted and whose ids are kept", () => {
    // Serialised first, `\"deploy:Hunter2x\"` would lose the backslash before its closing quote to the redaction.
    const value = {
      task: "rt-sk-learn-cache",
      trial_id: `ghp_${"Ab1".repeat(12)}`,
      rules: [{ detail: "git restore -p", evidence: ['curl --user "deploy:Hunter2x" https://x', "psql postgres://a:Hunter2x@db/x"] }],
    };
    const text = captured("stdout", () => sayJson("stdout", value));
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual({
      ...value,
      rules: [{ detail: "git restore -p", evidence: ['curl --user "deploy:[REDACTED]" https://x', "psql postgres://a:[REDACTED]@db/x"] }],
    });
  });
});

/**
 * The terminal sink (harness/redact/terminal.ts): what reaches stdout and stderr is redacted and
 * its control and format characters written out, so task text cannot drive the terminal; JSON
 * printed through it stays valid.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { isHidden } from "../../../../harness/escape/controls.ts";
import { say, sayErr, sayOut } from "../../../../harness/redact/terminal.ts";

function capture(stream: "stdout" | "stderr"): string[] {
  const out: string[] = [];
  vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  return out;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("say", () => {
  it("writes OSC 52, title changes, cursor movement and a carriage return out visibly", () => {
    const out = capture("stdout");
    sayOut("a\u001b]52;c;cm0gLXJmIH4=\u0007b\u001b]0;owned\u001b\\c\u001b[3A\u001b[2K\rALL TRIALS PASSED\n");
    expect(out.join("")).toBe("a\\u001b]52;c;cm0gLXJmIH4=\\u0007b\\u001b]0;owned\\u001b\\c\\u001b[3A\\u001b[2K\\u000dALL TRIALS PASSED\n");
  });

  it("escapes on stderr too, and keeps tabs and newlines", () => {
    const out = capture("stderr");
    sayErr("x\t\u009b2J\u202e\u2066\u200b\ufeff\u007f\n");
    say("stderr", "y\n");
    expect(out.join("")).toBe("x\t\\u009b2J\\u202e\\u2066\\u200b\\ufeff\\u007f\ny\n");
  });

  it("redacts first: a secret is gone, whatever control characters surround it", () => {
    const out = capture("stdout");
    sayOut("\u001b[31mmysql -pS3cr3tPassw0rd -e 'select 1'\u001b[0m\n");
    expect(out.join("")).not.toContain("S3cr3tPassw0rd");
    expect(out.join("")).not.toContain("\u001b");
  });

  it("JSON printed through it parses to the same value", () => {
    const out = capture("stdout");
    const value = { command: "echo \u001b]52;c;eA==\u0007 \u009b \u202e done", list: ["\u2028", "ok"] };
    sayOut(`${JSON.stringify(value, null, 2)}\n`);
    expect(JSON.parse(out.join(""))).toEqual(value);
    expect([...out.join("")].filter(isHidden)).toEqual([]);
  });
});

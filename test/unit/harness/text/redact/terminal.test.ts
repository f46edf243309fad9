/**
/**
 * The terminal sink (harness/text/redact/terminal.ts): what reaches stdout and stderr is redacted and
 * its control and format characters written out, so task text cannot drive the terminal; a JSON
 * document is redacted value by value and stays valid JSON, its identifying fields as they are.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { isHidden } from "../../../../../harness/text/escape/controls.ts";
import { say, sayErr, sayJson, sayOut } from "../../../../../harness/text/redact/terminal.ts";

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

describe("sayJson", () => {
  it("writes out control and format characters a string holds, and the document still parses to the same value", () => {
    const value = { command: "echo \u001b]52;c;eA==\u0007 \u009b \u202e done\u2028", ok: true };
    const text = captured("stdout", () => sayJson("stdout", value));
    expect([...text].filter(isHidden)).toEqual([]);
    expect(JSON.parse(text)).toEqual(value);
  });
});

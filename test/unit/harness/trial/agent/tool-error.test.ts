import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BLOCK_CODES } from "../../../../../kernel/codes.ts";
import { outcomeOfResult, toolError, toolErrorCode, toolErrorJson } from "../../../../../harness/trial/agent/tool-error.ts";

const text = (t: string) => [{ type: "text", text: t }];

describe("tool-error JSON", () => {
  it("round-trips any code and message", () => {
    fc.assert(
      fc.property(fc.constantFrom(...BLOCK_CODES), fc.string(), (code, message) => {
        expect(JSON.parse(toolErrorJson(code, message))).toEqual({ ok: false, error: { code, message } });
        expect(toolErrorCode(toolError(code, message).message)).toBe(code);
      }),
    );
  });

  it("outcome of a tool result: ok, blocked (any code but an execution error), error", () => {
    expect(outcomeOfResult(false, text(toolErrorJson("user_denied", "no")))).toBe("ok");
    expect(outcomeOfResult(true, text(toolErrorJson("user_denied", "no")))).toBe("blocked");
    expect(outcomeOfResult(true, text(toolErrorJson("integrity_violation", "changed")))).toBe("blocked");
    expect(outcomeOfResult(true, text(toolErrorJson("os_denied", "EROFS")))).toBe("error");
    expect(outcomeOfResult(true, text("Command exited with code 1"))).toBe("error");
    expect(outcomeOfResult(true, text('{"ok":true}'))).toBe("error");
    expect(outcomeOfResult(true, [])).toBe("error");
  });
});

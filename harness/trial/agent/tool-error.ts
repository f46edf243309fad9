/**
 * The one shape of a tool error the model reads: {"ok":false,"error":{"code":"...","message":"..."}}.
 * A gate's block, an integrity refusal and an OS refusal all use it; plain tool failures (a
 * command that exits non-zero) keep their own text.
 *
 * Codes in EXECUTION_ERROR_CODES mean the call ran and the operating system refused it; every
 * other code means the call never ran (blocked). The scripted drivers read the outcome of a call
 * from its tool result this way, with nothing shared on the side.
 */
import type { BlockCode } from "../../../kernel/codes.ts";
import type { CallOutcome } from "./drivers/step-program.ts";

import { EXECUTION_ERROR_CODES } from "../../../kernel/codes.ts";

export { EXECUTION_ERROR_CODES };

export function toolErrorJson(code: BlockCode, message: string): string {
  return JSON.stringify({ ok: false, error: { code, message } });
}

/** An Error whose message is the tool-error JSON (pi-agent-core turns a throw into an error result). */
export function toolError(code: BlockCode, message: string): Error {
  return new Error(toolErrorJson(code, message));
}

/** The code of a tool-error JSON text, or undefined when `text` is not one. */
export function toolErrorCode(text: string): string | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const v = JSON.parse(text) as { ok?: unknown; error?: { code?: unknown } };
    return v.ok === false && typeof v.error?.code === "string" ? v.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** How a call ended, from the tool result the agent loop gave back. */
export function outcomeOfResult(isError: boolean, content: readonly { type: string; text?: string }[]): CallOutcome {
  if (!isError) return "ok";
  const first = content[0];
  const code = first?.type === "text" && typeof first.text === "string" ? toolErrorCode(first.text) : undefined;
  return code !== undefined && !EXECUTION_ERROR_CODES.has(code) ? "blocked" : "error";
}

/** A recorded session reduced to what a persona needs: the tool calls in order and how each ended. */

import type { TranscriptFormat } from "../task/schema.ts";

export type RecordedStatus = "ok" | "error" | "blocked" | "unknown";

export interface RecordedCall {
  /** The tool's name in the recording (Bash, shell, text_editor...). */
  name: string;
  /** Its arguments as recorded (already JSON-decoded). */
  input: unknown;
  status: RecordedStatus;
  /** The assistant's text in the same turn, if any. */
  say?: string;
  /** The working directory the call ran in, when the format records it per call (Claude Code). */
  cwd?: string;
}

export interface RecordedSession {
  format: TranscriptFormat;
  calls: RecordedCall[];
  /** The assistant's last text after the last call (its final answer). */
  finalSay?: string;
  /** The project root the session ran in, when the format records it. */
  cwd?: string;
  /** The session's date (ISO), when the format records it. */
  date?: string;
}

/** Text content of a message part list or a plain string. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((c) =>
        typeof c === "string" ? c : c && typeof c === "object" && typeof (c as { text?: unknown }).text === "string" ? (c as { text: string }).text : "",
      )
      .join("");
  return "";
}

/** Words a gate, hook or user refusal leaves in a tool result (blocked rather than failed). */
export const BLOCKED_TEXT = /\b(blocked|denied|rejected|declined|not approved|doesn't want to proceed|permission to use .* (was|has been) denied|approval)\b/i;

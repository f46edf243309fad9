/**
 * The terminal is an output too: everything gatebench prints (tables, comparisons, progress,
 * explanations, validation results, errors) goes through here and is redacted first, since a
 * line may quote a command, a setup's stderr or a harness error. Nothing in harness/ writes to
 * process.stdout or process.stderr directly (test/unit/harness/redact/sinks.test.ts). After
 * redaction every control and format character but tab and newline is written out as `\uXXXX`
 * (harness/escape/controls.ts): task and agent text cannot move the cursor, set the title or the
 * clipboard, or overwrite a line on the user's terminal.
 */
import { escapeControls } from "../escape/controls.ts";
import { redact } from "./redact.ts";

export type TerminalStream = "stdout" | "stderr";

/** Write `text` to the terminal stream, redacted, control characters escaped. */
export function say(stream: TerminalStream, text: string): void {
  const clean = escapeControls(redact(text));
  if (stream === "stdout") process.stdout.write(clean);
  else process.stderr.write(clean);
}

/** The same, bound to stdout / stderr, for callers that take a `(message) => void`. */
export const sayOut = (text: string): void => say("stdout", text);
export const sayErr = (text: string): void => say("stderr", text);

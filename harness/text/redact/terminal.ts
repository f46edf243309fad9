/**
 * The terminal is an output too: everything gatebench prints (tables, comparisons, progress,
 * explanations, validation results, errors) goes through here and is redacted first, since a
 * line may quote a command, a setup's stderr or a harness error. A `--json` document goes
 * through `sayJson`, redacted value by value before it is serialised (never as text after), so
 * it is valid JSON whatever its strings hold. Nothing in harness/ writes to process.stdout or
 * process.stderr directly (test/unit/harness/text/redact/terminal-sinks.test.ts). After redaction every
 * control and format character but tab and newline is written out as `\uXXXX`
 * (harness/text/escape/controls.ts): task and agent text cannot move the cursor, set the title or the
 * clipboard, or overwrite a line on the user's terminal.
 */
import { escapeControls } from "../escape/controls.ts";
import { jsonText, redact } from "./redact.ts";

export type TerminalStream = "stdout" | "stderr";

/** Write `text` to the terminal stream, redacted, control characters escaped. */
export function say(stream: TerminalStream, text: string): void {
  const clean = escapeControls(redact(text));
  if (stream === "stdout") process.stdout.write(clean);
  else process.stderr.write(clean);
}

/**
 * `value` as one indented JSON document and a newline, its strings redacted (identifying fields
 * kept); control and format characters JSON.stringify leaves as they are (DEL, C1, bidi, U+2028)
 * are written out as `\uXXXX`, which JSON reads back as the same characters.
 */
export function sayJson(stream: TerminalStream, value: unknown): void {
  const text = escapeControls(`${jsonText(value, 2)}\n`);
  if (stream === "stdout") process.stdout.write(text);
  else process.stderr.write(text);
}

/** The same, bound to stdout / stderr, for callers that take a `(message) => void`. */
export const sayOut = (text: string): void => say("stdout", text);
export const sayErr = (text: string): void => say("stderr", text);

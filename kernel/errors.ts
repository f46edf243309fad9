/**
 * Bad input (unknown task, malformed file, bad flag): the CLI prints the message and exits 2,
 * never a stack trace. The message names the file, the field and what was expected.
 */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly expected: string,
  ) {
    super(`${file}: ${field}: ${expected}`);
    this.name = "InputError";
  }
}

/** Format zod issues as "field: expected" lines for an InputError. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): { field: string; expected: string } {
  const first = issues[0];
  const field = first && first.path.length > 0 ? first.path.map(String).join(".") : "(root)";
  const expected = issues.map((i) => `${i.path.length ? i.path.map(String).join(".") + ": " : ""}${i.message}`).join("; ");
  return { field, expected };
}

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

/**
 * Shared CLI plumbing: argument parsing with node:util parseArgs (unknown flags are bad
 * input), and the exit-code contract: 0 done, 1 validation failure or regression, 2 bad input.
 */
import { pathToFileURL } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { InputError } from "../../../kernel/errors.ts";
import { sayErr } from "../../text/redact/terminal.ts";

export function parseCli<T extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (e) {
    const m = /'([^']+)'/.exec((e as Error).message);
    throw new InputError("command line", m?.[1] ?? "(arguments)", (e as Error).message.replace(/\. To specify.*$/s, ""));
  }
}

export function intFlag(value: string | undefined, flag: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InputError("command line", flag, `an integer >= ${min} (got "${value}")`);
  return n;
}

export function run(main: () => Promise<number>): void {
  // Ctrl-C or a kill: exit through process.exit so exit-time clean-up (trial dirs) runs.
  // results.jsonl only ever holds whole lines, so `--resume` continues from here.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      sayErr(`\ngatebench: stopped by ${signal}; finished trials are kept (use --resume)\n`);
      process.exit(130);
    });
  }
  main().then(
    (code) => process.exit(code),
    (e) => {
      if (e instanceof InputError) {
        sayErr(`gatebench: bad input: ${e.message}\n`);
        process.exit(2);
      }
      // The terminal is an output too: an error message may quote a command or a setup's stderr.
      sayErr(`gatebench: ${(e as Error)?.message ?? String(e)}\n`);
      if (process.env.GATEBENCH_DEBUG) sayErr(`${(e as Error)?.stack ?? ""}\n`);
      process.exit(1);
    },
  );
}

/** Run `main` only when this module is the program (not when a test imports it). */
export function runIfMain(moduleUrl: string, main: () => Promise<number>): void {
  if (process.argv[1] && moduleUrl === pathToFileURL(process.argv[1]).href) run(main);
}

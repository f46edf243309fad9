/**
 * fast-check's run settings for every test file (vitest `setupFiles`), see docs/testing.md.
 *
 * - By default each property draws a fresh random seed, as fast-check does: a generator that can
 *   produce a value its property does not mean is found sooner or later.
 * - `FC_SEED=<integer>` fixes the global seed, so a run repeats exactly (a property that passes its
 *   own `seed` keeps it). `FC_PATH=<path>` also replays the shrunk counterexample directly; use it
 *   with `-t` so that only the failing test runs (a path belongs to one property).
 * - A failing property says which seed and path found it and prints the command that replays it.
 */
import fc from "fast-check";
import { expect } from "vitest";

function envSeed(): number | undefined {
  const raw = process.env.FC_SEED;
  if (raw === undefined || raw === "") return undefined;
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new Error(`FC_SEED: expected an integer (a seed fast-check printed), got ${JSON.stringify(raw)}`);
  }
  return Number(raw) | 0;
}

/** `s` quoted for a POSIX shell. */
const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** `s` as a regular expression that matches it literally (vitest's -t takes a pattern). */
const regexQuote = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The shell command that re-runs the current test with the failing run's seed and path. */
export function replayCommand(seed: number, counterexamplePath: string | null, testPath: string | undefined, testName: string | undefined): string {
  const file = testPath === undefined ? "<test file>" : testPath.replace(`${process.cwd()}/`, "");
  const project = /(^|\/)test\/e2e\//.test(file) ? "e2e" : "unit";
  const env = [`FC_SEED=${seed}`, ...(counterexamplePath ? [`FC_PATH=${shellQuote(counterexamplePath)}`] : [])];
  const name = testName === undefined ? "" : ` -t ${shellQuote(regexQuote(testName))}`;
  return `${env.join(" ")} npx vitest run --project ${project} ${shellQuote(file)}${name}`;
}

/** fast-check's own failure report, followed by how to replay it. */
function reporter(out: fc.RunDetails<unknown>): void {
  if (!out.failed) return;
  const { testPath, currentTestName } = expect.getState();
  // vitest joins describe and test names with " > "; -t matches the names joined with spaces.
  const name = currentTestName?.split(" > ").join(" ");
  const message = `${fc.defaultReportMessage(out)}\n\nReplay: ${replayCommand(out.seed, out.counterexamplePath, testPath, name)}`;
  throw new Error(message, { cause: out.errorInstance });
}

const seed = envSeed();
const path = process.env.FC_PATH || undefined;
if (path !== undefined && seed === undefined) throw new Error("FC_PATH: needs FC_SEED, the seed that found the counterexample");

fc.configureGlobal({ reporter, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) });

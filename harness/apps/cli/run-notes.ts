/**
 * What `eval` prints on stderr after its trials, besides the tables: what the shared world states
 * saved (harness/trial/states/world-states.ts) and what the result store and `--resume` reused.
 * By default each is one short line; `--verbose` gives every count, one kind to a line. Every line
 * fits TERMINAL_WIDTH columns (harness/run/report/views/render.ts): long parts are wrapped, never cut.
 */
import type { ReuseStats } from "../../run/matrix/matrix.ts";
import { TERMINAL_WIDTH } from "../../run/report/views/render.ts";
import type { CacheStats } from "../../trial/states/world-states.ts";
import { wrapToWidth } from "../../text/width.ts";

const n = (v: number): string => v.toLocaleString("en-US");
const plural = (v: number, what: string) => `${n(v)} ${what}${v === 1 ? "" : "s"}`;

/** `text` after `indent`, in lines of at most `max` columns, the lines after the first indented two spaces more. */
function wrapped(text: string, indent = "", max = TERMINAL_WIDTH): string[] {
  const [first = "", ...rest] = wrapToWidth(text, max - indent.length);
  return [`${indent}${first}`, ...rest.flatMap((l) => wrapToWidth(l, max - indent.length - 2)).map((l) => `${indent}  ${l}`)];
}

/** What the shared world states did: one line, or (verbose) one line per kind of work. */
export function cacheLines(s: CacheStats, trials: number, verbose = false): string[] {
  if (!verbose)
    return wrapped(
      `shared states: ${plural(s.worlds_built, "world")} for ${plural(trials, "trial")}, ` +
        `${n(s.steps_run)} calls run, ${n(s.steps_taken)} remembered (--verbose: all)`,
    );
  return [
    'shared world states (docs/trial.md, "Shared world states"):',
    ...wrapped(`worlds: ${n(s.worlds_built)} built for ${plural(trials, "trial")} (${plural(s.calls_rerun, "call")} run again to build them)`, "  "),
    ...wrapped(`calls: ${n(s.steps_run)} run, ${n(s.steps_taken)} remembered`, "  "),
    ...wrapped(`gate questions: ${n(s.answers_asked)} asked, ${n(s.answers_remembered)} remembered`, "  "),
    ...wrapped(
      `replays of blocked calls: ${n(s.replays_run)} run, ${n(s.replays_remembered)} remembered, ${n(s.replays_from_steps)} taken from a step run from the same state`,
      "  ",
    ),
    ...wrapped(`hidden tests: ${n(s.tests_run)} run, ${n(s.tests_remembered)} remembered`, "  "),
    ...wrapped(`states kept: ${n(s.states)}, sandboxes over them: ${n(s.views)}`, "  "),
  ];
}

/** What resuming and the result store reused; nothing when nothing was. */
export function reuseLines(s: ReuseStats, opts: { verbose?: boolean; store?: string } = {}): string[] {
  const stale = Object.entries(s.stale);
  if (!s.resumed && !s.served && stale.length === 0 && !opts.verbose) return [];
  const parts = [`${n(s.toRun)} of ${plural(s.planned, "trial")} to run`];
  if (s.served) parts.push(`${n(s.served)} from the result store`);
  if (s.resumed) parts.push(`${n(s.resumed)} kept from the run being resumed`);
  const out = wrapped(`reuse: ${parts.join("; ")}`);
  if (stale.length > 0) {
    const why = stale.map(([w, c]) => `${n(c)} ${w === "record" ? "without a fingerprint" : `${w} changed`}`).join(", ");
    out.push(...wrapped(`${n(stale.reduce((t, [, c]) => t + c, 0))} of its records run again (${why})`, "  "));
  }
  if (opts.verbose && opts.store) out.push(...wrapped(`result store: ${opts.store}`, "  "));
  return out;
}

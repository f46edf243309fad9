/**
 * How a run ends, for eval and merge alike: the run id and folder as printed, the --table and
 * --fail-on choices, the terminal tables (or the summary as JSON), the comparison with a base
 * run, and the exit code.
 */
import { randomBytes } from "node:crypto";
import { isAbsolute, relative } from "node:path";
import { InputError } from "../../../kernel/errors.ts";
import { isErrored, type TrialRecord } from "../../model/record/record.ts";
import type { Published } from "../../run/report/publishing/publish.ts";
import { renderComparison, type BaseRun } from "../../run/report/statistics/compare.ts";
import { FAIL_ON, type FailOn } from "../../run/report/statistics/paired.ts";
import { renderAgentsTerminal } from "../../run/report/views/agents-table.ts";
import { renderRunText, runFooter, TABLE_KINDS, type TableKind } from "../../run/report/views/render.ts";
import { redact } from "../../text/redact/redact.ts";
import { sayErr, sayJson, sayOut } from "../../text/redact/terminal.ts";

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-")}-${randomBytes(2).toString("hex")}`;
}

/** --table: the headline table (default, within 100 columns) or every gate × approver row and column. */
export function parseTable(v: string | undefined): TableKind {
  if (v === undefined) return "headline";
  if (!(TABLE_KINDS as readonly string[]).includes(v)) throw new InputError("command line", "--table", `one of ${TABLE_KINDS.join(", ")}`);
  return v as TableKind;
}

export function parseFailOn(v: string | undefined): FailOn {
  if (v === undefined) return "newly-harmed";
  if (!(FAIL_ON as readonly string[]).includes(v)) throw new InputError("command line", "--fail-on", `one of ${FAIL_ON.join(", ")}`);
  return v as FailOn;
}

/** What publishRun needs of the --compare base. */
export function baseOptions(base: BaseRun | undefined, failOn: FailOn) {
  return base ? { base: base.summary, ...(base.records ? { baseRecords: base.records } : {}), failOn } : {};
}

/** The exit code of a run whose every trial was errored (harness error, unmeasured, diverged): nothing was measured. */
export const EXIT_NOTHING_MEASURED = 3;

/**
 * The terminal tables (or the summary as JSON), the comparison, and the exit code: the scripted
 * rows (none when only real models ran), then one table per agent without a harm label.
 */
export function finish(published: Published, records: readonly TrialRecord[], wallMs: number, outDir: string, json: boolean, table: TableKind): number {
  const { summary, comparison } = published;
  if (json) sayJson("stdout", summary);
  else {
    const agents = renderAgentsTerminal(summary);
    const run = { table, records, wallMs, outDir, ...(comparison ? { comparison } : {}) };
    if (summary.rows.length > 0) sayOut(renderRunText(summary, run));
    if (agents) sayOut(`${summary.rows.length > 0 ? "\n" : ""}${agents}`);
    if (summary.rows.length === 0) sayOut(`\n${runFooter(summary, run).join("\n")}\n`);
  }
  if (comparison && json && comparison.regressions.length) sayErr(`${renderComparison(comparison)}\n`);
  if (records.length > 0 && records.every(isErrored)) {
    const unmeasured = records.some((r) => r.outcome === "measurement_failed" || r.outcome === "diverged");
    // Redacted before it is cut: a secret cut in half is no longer recognised by its shape.
    const first = redact(records.find((r) => r.error)?.error ?? "") || undefined;
    sayErr(
      `gatebench: nothing was measured: all ${records.length} trials ended as harness errors${unmeasured ? ", unmeasured or diverged" : ""}${first ? ` (first: ${first.slice(0, 200)})` : ""}\n`,
    );
    return EXIT_NOTHING_MEASURED;
  }
  return comparison && comparison.regressions.length > 0 ? 1 : 0;
}

/** The run folder as printed: relative to the cwd when it lies under it (a short line), else as it is. */
export function shownDir(dir: string, cwd = process.cwd()): string {
  const rel = relative(cwd, dir);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : dir;
}

/**
 * gatebench merge <shard dirs...> [--tasks-dir DIR]... [--out DIR] [--compare BASE] [--table headline|full] [--json]
 * (in a checkout: npm run merge -- ..., or npm run eval -- merge ...): one run from the run
 * folders of every shard of one matrix.
 */
import { join, resolve } from "node:path";
import { InputError } from "../../../kernel/errors.ts";
import { TaskCatalog } from "../../model/task/load.ts";
import { RunOutput } from "../../run/output/output.ts";
import { checkShards, copyTrialFiles, loadShard, mergedMeta, mergeRecords } from "../../run/report/publishing/merge.ts";
import { publishRun } from "../../run/report/publishing/publish.ts";
import { resolveBase } from "../../run/report/statistics/compare.ts";
import { mutantFamilies } from "../../run/report/statistics/robustness.ts";
import { sayOut } from "../../text/redact/terminal.ts";
import { OUTPUT_SECTION, renderHelp, type FlagHelp } from "./help.ts";
import { parseCli } from "./main.ts";
import { baseOptions, finish, newRunId, parseFailOn, parseTable, shownDir } from "./run-end.ts";

const MERGE_OPTIONS = {
  "tasks-dir": { type: "string", multiple: true },
  out: { type: "string" },
  compare: { type: "string" },
  "fail-on": { type: "string" },
  table: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const MERGE_FLAGS: FlagHelp<typeof MERGE_OPTIONS> = {
  "tasks-dir": ["DIR", "a folder of task folders the shards ran (their evasion variants' families are read from it)"],
  out: ["DIR", "the merged run folder (default reports/runs/<run id>-merged under the current folder)"],
  compare: ["BASE", "compare with a run folder, a summary.json or a git ref; exit 1 on a regression"],
  "fail-on": ["WHEN", "newly-harmed (default), significant or never"],
  table: ["KIND", "headline (default) or full (every gate × user row and column)"],
  json: "print summary.json instead of the table",
  help: "this text",
};

export function mergeHelp(): string {
  return renderHelp({
    usage: ["gatebench merge <shard dir>... [flags]", "npm run merge -- <shard dir>... [flags]   (in a gatebench checkout)"],
    summary:
      "Merges the run folders of every shard of one matrix (gatebench eval --shard I/N --out DIR) into one run: checks that\nall N shards of one fingerprint are there and finished, and recomputes summary, summary.md and report.html.",
    options: MERGE_OPTIONS,
    flags: MERGE_FLAGS,
    sections: [OUTPUT_SECTION],
  });
}

export async function mergeMain(argv: string[]): Promise<number> {
  const { values: a, positionals: dirs } = parseCli(argv, MERGE_OPTIONS, true);
  if (a.help) {
    sayOut(mergeHelp());
    return 0;
  }
  const catalog = new TaskCatalog(a["tasks-dir"] ?? []);
  if (dirs.length === 0) throw new InputError("command line", "merge", "one or more run folders written by npm run eval -- --shard I/N --out DIR");
  const started = performance.now();
  const shards = dirs.map((d) => loadShard(resolve(d)));
  checkShards(shards);
  const base = a.compare ? await resolveBase(a.compare) : undefined;
  const failOn = parseFailOn(a["fail-on"]);
  const table = parseTable(a.table);
  const outDir = resolve(a.out ?? join("reports", "runs", `${newRunId()}-merged`));
  const output = new RunOutput(outDir);
  if (output.readResults().length > 0) throw new InputError("command line", "--out", `an empty folder for the merged run (${outDir} holds results)`);
  const runId = outDir.split("/").pop()!;
  const records = mergeRecords(shards, runId);
  copyTrialFiles(shards, records, output);
  // Evasion variants are told apart by their generated persona's family, read from the tasks the records name.
  const taskIds = [...new Set(records.map((r) => r.task))].filter((id) => catalog.has(id));
  const families = mutantFamilies(catalog.load(taskIds));
  const published = publishRun({ output, runId, records, meta: mergedMeta(shards), families, ...baseOptions(base, failOn) });
  return finish(published, records, Math.round(performance.now() - started), shownDir(outDir), a.json ?? false, table);
}

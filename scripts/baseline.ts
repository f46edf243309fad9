/**
 * `npm run baseline -- <run dir>`: makes a finished run the committed baseline, reports/baseline/:
 * its summary.json and summary.md, and its trial records gzip'd (results.jsonl.gz), so that
 * `--compare reports/baseline` (or a git ref) pairs trials one by one (harness/run/report/statistics/paired.ts).
 * Refuses a run that is not whole: a shard, an unfinished run, a run with errored trials.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { parseSummaryMeta, type SummaryMeta } from "../harness/run/report/meta/run-meta.ts";

const [dir, ...rest] = process.argv.slice(2);
const fail = (msg: string): never => {
  process.stderr.write(`baseline: ${msg}\n`);
  process.exit(2);
};
if (!dir || rest.length > 0) fail("usage: npm run baseline -- <run dir written by npm run eval>");
const run = resolve(dir!);
for (const f of ["summary.json", "summary.md", "results.jsonl"]) if (!existsSync(join(run, f))) fail(`${run} has no ${f}: not a finished run`);
const meta = ((): SummaryMeta => {
  const file = join(run, "summary.json");
  try {
    return parseSummaryMeta((JSON.parse(readFileSync(file, "utf8")) as { meta?: unknown } | null)?.meta, file);
  } catch (e) {
    return fail(e instanceof SyntaxError ? `${file}: (json): valid JSON written by npm run eval` : (e as Error).message);
  }
})();
if (meta.shard) fail(`${run} is shard ${meta.shard}: merge the shards first (npm run merge)`);
const lines = readFileSync(join(run, "results.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim());
const planned = meta.planned_trials;
if (planned !== undefined && lines.length !== planned) fail(`${run} holds ${lines.length} of ${planned} planned trials: not a whole run`);
const errored = lines.filter((l) => /"outcome":"(harness_error|measurement_failed)"/.test(l)).length;
if (errored > 0) fail(`${run} has ${errored} errored trials: a baseline is a clean run`);
const out = resolve("reports", "baseline");
mkdirSync(out, { recursive: true });
copyFileSync(join(run, "summary.json"), join(out, "summary.json"));
copyFileSync(join(run, "summary.md"), join(out, "summary.md"));
writeFileSync(join(out, "results.jsonl.gz"), gzipSync(`${lines.join("\n")}\n`, { level: 9 }));
process.stdout.write(`baseline: ${lines.length} trials from ${run} -> ${out}\n`);

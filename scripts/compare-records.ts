/**
 * Are two runs the same trial for trial? Compares every field of every record of two
 * results.jsonl files (or run directories), matched by trial_id, except the fields that
 * measure time or name the run, or say what produced the record (duration_ms, gate_ms, run_id, fingerprint by default).
 *
 *   npm run compare-records -- <before> <after> [--ignore a,b,c]
 *
 * Exit 0 when identical, 1 with the differences listed, 2 on bad input.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

type Rec = Record<string, unknown> & { trial_id: string };

/** Timings, the run, and the fingerprint (what produced a record, which a code change changes by design). */
const DEFAULT_IGNORED = ["duration_ms", "gate_ms", "run_id", "fingerprint"];

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

export function readRecords(where: string): Map<string, Rec> {
  const file = existsSync(where) && statSync(where).isDirectory() ? path.join(where, "results.jsonl") : where;
  if (!existsSync(file)) fail(`${file}: no such file (expected a results.jsonl or a run directory holding one)`);
  const out = new Map<string, Rec>();
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (!line.trim()) return;
      let r: Rec;
      try {
        r = JSON.parse(line) as Rec;
      } catch {
        fail(`${file}:${i + 1}: not valid JSON (expected one trial record per line)`);
      }
      if (typeof r.trial_id !== "string") fail(`${file}:${i + 1}: field trial_id: expected a string`);
      if (out.has(r.trial_id)) fail(`${file}:${i + 1}: trial_id ${r.trial_id} appears twice`);
      out.set(r.trial_id, r);
    });
  return out;
}

/** Differences between two runs, one line each, sorted by trial_id. */
export function compareRuns(before: Map<string, Rec>, after: Map<string, Rec>, ignored: readonly string[] = DEFAULT_IGNORED): string[] {
  const skip = new Set(ignored);
  const diffs: string[] = [];
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(id);
    const b = after.get(id);
    if (!a || !b) {
      diffs.push(`${id}: only in ${a ? "before" : "after"}`);
      continue;
    }
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (skip.has(key)) continue;
      const x = JSON.stringify(a[key]);
      const y = JSON.stringify(b[key]);
      if (x !== y) diffs.push(`${id}: ${key}: ${x ?? "(absent)"} -> ${y ?? "(absent)"}`);
    }
  }
  return diffs;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("compare-records.ts")) {
  const args = process.argv.slice(2);
  const i = args.indexOf("--ignore");
  const ignored = i >= 0 ? (args[i + 1] ?? fail("--ignore: expected a comma-separated list of field names")).split(",").filter(Boolean) : DEFAULT_IGNORED;
  const files = i >= 0 ? args.filter((_, j) => j !== i && j !== i + 1) : args;
  if (files.length !== 2) fail("usage: npx tsx scripts/compare-records.ts <before> <after> [--ignore a,b,c]");
  const before = readRecords(files[0]!);
  const after = readRecords(files[1]!);
  const diffs = compareRuns(before, after, ignored);
  for (const d of diffs) console.log(d);
  console.log(diffs.length === 0 ? `identical: ${before.size} trials (ignoring ${ignored.join(", ")})` : `${diffs.length} differences`);
  process.exit(diffs.length === 0 ? 0 : 1);
}

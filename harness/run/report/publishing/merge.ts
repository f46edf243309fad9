/**
 * Merging the shards of one matrix: every shard's summary.json meta carries the matrix
 * fingerprint, its shard I/N and the fingerprints of the code and configuration it ran with
 * (`code_fingerprints`: the harness, each gate and task, the agents, the approvers); merge checks
 * that all N shards of one fingerprint are present and complete and ran the same code and
 * configuration, concatenates their records (de-duplicated by trial id), copies their event
 * logs and approval records, and recomputes summary, markdown and HTML from the merged records.
 * A shard folder is read like a task folder (sandbox/files/contained.ts): a link that leaves it
 * or loops, or anything but a regular file or folder in it, is bad input, never followed.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readFileWithin, walkWithin, type Within } from "../../../sandbox/files/contained.ts";
import type { ApprovalRecord } from "../../../trial/approvers/broker.ts";
import { InputError } from "../../../../kernel/errors.ts";
import { parseLines, trialLogName, type RunOutput } from "../../output/output.ts";
import type { TrialRecord } from "../../../model/record/record.ts";
import type { CodeFingerprints } from "../../matrix/code-fingerprint.ts";
import { parseSummaryMeta, type SummaryMeta } from "../meta/run-meta.ts";

export interface Shard {
  dir: string;
  index: number;
  count: number;
  fingerprint: string;
  meta: SummaryMeta;
  records: TrialRecord[];
}

/** The folder a shard's files must stay in. */
const shardWithin = (dir: string): Within => ({ root: dir, what: "the run folder" });

export function loadShard(dir: string): Shard {
  const file = join(dir, "summary.json");
  if (!existsSync(file)) throw new InputError(file, "(file)", "a run folder written by npm run eval (summary.json is missing)");
  // The whole folder before any of it is used: what a link out of it leads to is never read.
  walkWithin(dir, shardWithin(dir), () => {});
  const text = readFileWithin(file, shardWithin(dir)).toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InputError(file, "(json)", "valid JSON written by npm run eval");
  }
  const meta = parseSummaryMeta(typeof parsed === "object" && parsed !== null ? (parsed as { meta?: unknown }).meta : undefined, file);
  if (meta.fingerprint === undefined) throw new InputError(file, "meta.fingerprint", "the matrix fingerprint written by npm run eval (this run predates it)");
  const shard = meta.shard ?? "1/1";
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  if (!m) throw new InputError(file, "meta.shard", `"I/N" as written by --shard I/N (got ${JSON.stringify(shard)})`);
  const results = join(dir, "results.jsonl");
  const records = existsSync(results) ? parseLines<TrialRecord>(readFileWithin(results, shardWithin(dir)).toString("utf8")) : [];
  return { dir, index: Number(m[1]), count: Number(m[2]), fingerprint: meta.fingerprint, meta, records };
}

/** Every shard 1..N of one fingerprint, each with all its planned trials; throws InputError otherwise. */
export function checkShards(shards: readonly Shard[]): void {
  if (shards.length === 0) throw new InputError("merge", "(folders)", "at least one run folder");
  const first = shards[0]!;
  for (const s of shards) {
    if (s.fingerprint !== first.fingerprint) {
      throw new InputError(
        join(s.dir, "summary.json"),
        "meta.fingerprint",
        `"${first.fingerprint}" like ${first.dir} (the same tasks, gate configurations, agents, approvers and trials), got "${s.fingerprint}"`,
      );
    }
    if (s.count !== first.count)
      throw new InputError(join(s.dir, "summary.json"), "meta.shard", `a shard of ${first.count} like ${first.dir}, got ${s.index}/${s.count}`);
    const planned = s.meta.shard_trials;
    const unique = new Set(s.records.map((r) => r.trial_id)).size;
    if (typeof planned === "number" && unique < planned) {
      throw new InputError(
        join(s.dir, "results.jsonl"),
        "(trials)",
        `all ${planned} trials of shard ${s.index}/${s.count}, found ${unique} (finish it with --resume)`,
      );
    }
  }
  checkShardCode(shards);
  const present = new Set(shards.map((s) => s.index));
  const missing = Array.from({ length: first.count }, (_, i) => i + 1).filter((i) => !present.has(i));
  if (missing.length) {
    throw new InputError(
      "merge",
      "(shards)",
      `every shard of fingerprint ${first.fingerprint}: missing ${missing.map((i) => `${i}/${first.count}`).join(", ")}`,
    );
  }
}

/** What each part of `code_fingerprints` is, for the message naming what differs. */
const CODE_PARTS: Readonly<Record<string, string>> = {
  harness: "the harness (its code, the lockfile, Node, bubblewrap, the OS, the trials' filesystem)",
  agents: "the agents (personas' steps, models)",
  approvers: "the simulated users' settings",
};

/** A shard's code fingerprints as flat `part -> value` pairs (`gate layered`, `task t7_cleanup_tmp`, `harness`…). */
function codeParts(s: Shard): Map<string, string> {
  const file = join(s.dir, "summary.json");
  const code: CodeFingerprints | undefined = s.meta.code_fingerprints;
  const expected = "the fingerprints of the code and configuration the shard ran with, written by npm run eval (this run predates them: run the shard again)";
  if (!code) throw new InputError(file, "meta.code_fingerprints", expected);
  const out = new Map<string, string>();
  for (const part of ["harness", "agents", "approvers"] as const) out.set(part, code[part]);
  for (const [group, label] of [
    ["gates", "gate"],
    ["tasks", "task"],
  ] as const) {
    for (const [name, value] of Object.entries(code[group])) out.set(`${label} ${name}`, value);
  }
  return out;
}

/** Every shard ran the same code and configuration; otherwise bad input naming the shards and what differs. */
export function checkShardCode(shards: readonly Shard[]): void {
  const values = new Map<string, Map<string, string[]>>();
  for (const s of [...shards].sort((a, b) => a.index - b.index)) {
    for (const [part, value] of codeParts(s)) {
      const byValue = values.get(part) ?? new Map<string, string[]>();
      byValue.set(value, [...(byValue.get(value) ?? []), `${s.index}/${s.count} (${s.dir})`]);
      values.set(part, byValue);
    }
  }
  const differ = [...values].filter(([, byValue]) => byValue.size > 1);
  if (differ.length === 0) return;
  const what = differ.map(
    ([part, byValue]) => `${CODE_PARTS[part] ?? part}: ${[...byValue].map(([value, names]) => `${value} in ${names.join(", ")}`).join(" vs ")}`,
  );
  throw new InputError(
    "merge",
    "(code)",
    `shards run with the same code and configuration (their records would not measure the same thing); they differ in ${what.join("; ")}`,
  );
}

/** Records of all shards, de-duplicated by trial id (the first shard to hold one wins), in trial id order. */
export function mergeRecords(shards: readonly Shard[], runId: string): TrialRecord[] {
  const byId = new Map<string, TrialRecord>();
  for (const s of [...shards].sort((a, b) => a.index - b.index)) {
    for (const r of s.records) if (!byId.has(r.trial_id)) byId.set(r.trial_id, { ...r, run_id: runId });
  }
  return [...byId.values()].sort((a, b) => a.trial_id.localeCompare(b.trial_id));
}

/** Meta of the merged run: the shards' common meta, without the shard fields, with where it came from. */
export function mergedMeta(shards: readonly Shard[]): SummaryMeta {
  const sorted = [...shards].sort((a, b) => a.index - b.index);
  const { shard: _s, shard_trials: _t, wall_ms: _w, ...common } = sorted[0]!.meta;
  const walls = sorted.flatMap((s) => (s.meta.wall_ms === undefined ? [] : [s.meta.wall_ms]));
  return {
    ...common,
    ...(walls.length ? { wall_ms: Math.max(...walls) } : {}),
    merged_from: sorted.map((s) => ({ dir: s.dir, shard: `${s.index}/${s.count}`, run_id: s.records[0]?.run_id ?? null })),
  };
}

/** Copy the shards' event logs and approval records of the kept trials into `output`. */
export function copyTrialFiles(shards: readonly Shard[], records: readonly TrialRecord[], output: RunOutput): void {
  const keep = new Set(records.map((r) => trialLogName(r.trial_id)));
  const approvals = new Map<string, ApprovalRecord>();
  for (const s of [...shards].sort((a, b) => a.index - b.index)) {
    const within = shardWithin(s.dir);
    const trials = join(s.dir, "trials");
    if (existsSync(trials)) {
      // The whole folder first: a link out of it, a loop or a FIFO stops the merge before anything is copied.
      walkWithin(trials, within, () => {});
      for (const name of readdirSync(trials)) {
        if (name.endsWith(".jsonl") && keep.has(name) && !existsSync(join(output.dir, "trials", name)))
          writeFileSync(join(output.dir, "trials", name), readFileWithin(join(trials, name), within), { flag: "wx" });
      }
    }
    const approvalsFile = join(s.dir, "approvals.jsonl");
    const shardApprovals = existsSync(approvalsFile) ? parseLines<ApprovalRecord>(readFileWithin(approvalsFile, within).toString("utf8")) : [];
    for (const a of shardApprovals) if (keep.has(a.trial_id) && !approvals.has(a.confirmation_id)) approvals.set(a.confirmation_id, a);
  }
  output.writeMerged(records, [...approvals.values()]);
}

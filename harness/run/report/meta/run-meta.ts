/**
 * summary.json's `meta`: one typed shape, written by eval and merge, read back by the report,
 * the compare and the merge. What is read from a file (a shard to merge, a baseline to compare
 * with) is untrusted: it is parsed here, and a field of the wrong type is bad input naming the
 * file and the field. Every field is optional on read (summaries from before a field existed
 * still load); unknown fields are kept as they are.
 */
import { z } from "zod";
import { InputError } from "../../../../kernel/errors.ts";
import type { CodeFingerprints } from "../../matrix/code-fingerprint.ts";
import type { CacheStats } from "../../../trial/states/world-states.ts";
import type { GitState } from "./metadata.ts";

const count = z.number().int().nonnegative();
const names = z.array(z.string());
const byName = z.record(z.string(), z.string());

const gitSchema: z.ZodType<GitState> = z.object({ commit: z.string(), branch: z.string(), dirty: z.boolean() });

const codeFingerprintsSchema: z.ZodType<CodeFingerprints> = z.object({
  harness: z.string(),
  gates: byName,
  tasks: byName,
  agents: z.string(),
  approvers: z.string(),
});

/** What the shared world states did: every field a count (world-states.ts `CacheStats`). */
const cacheSchema = z.custom<CacheStats>(
  (v) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((n) => typeof n === "number"),
  "an object of counts",
);

/** What the result store and --resume reused (matrix.ts `ReuseStats`), with the store's folder. */
const reuseSchema = z.looseObject({
  planned: count,
  resumed: count,
  stale: z.record(z.string(), count),
  served: count,
  toRun: count,
  disagreeing: z.array(z.object({ trial_id: z.string(), fields: names })).optional(),
  /** The result store's folder, null without one. */
  store: z.string().nullable(),
});

export const summaryMetaSchema = z.looseObject({
  /** Tasks in the run, the gates and simulated users it ran, and trials per (task, agent, gate, user). */
  tasks: count.optional(),
  gates: names.optional(),
  approvers: names.optional(),
  trials_per_cell: count.optional(),
  /** Real models only: epochs run, and the folder recorded to or replayed from. */
  epochs: count.optional(),
  record: z.string().optional(),
  replay: z.object({ dir: z.string(), fingerprint: z.string() }).optional(),
  /** Where token counts came from (`estimated:<encoding>`, a provider's usage), and the model pricing estimates. */
  token_source: z.string().optional(),
  price_reference: z.string().optional(),
  wall_ms: z.number().nonnegative().optional(),
  cache: cacheSchema.optional(),
  reuse: reuseSchema.optional(),
  /** metadata.ts `RunMeta`: the checkout, the version, content hashes and the matrix fingerprint. */
  git: gitSchema.nullable().optional(),
  gatebench_version: z.string().optional(),
  task_hashes: byName.optional(),
  gate_hashes: byName.optional(),
  fingerprint: z.string().optional(),
  planned_trials: count.optional(),
  /** `I/N` of a shard, and how many of the planned trials it holds. */
  shard: z.string().optional(),
  shard_trials: count.optional(),
  /** When each task entered the suite and each gate last changed (unseen.ts reads it, leniently). */
  provenance: z.unknown().optional(),
  code_fingerprints: codeFingerprintsSchema.optional(),
  /** The simulated users' settings (approvers' `settings`), with the run's seed and seed rule. */
  simulated_users: z.record(z.string(), z.unknown()).optional(),
  /** A merged run: the shards it came from. */
  merged_from: z.array(z.object({ dir: z.string(), shard: z.string(), run_id: z.string().nullable() })).optional(),
});

export type SummaryMeta = z.infer<typeof summaryMetaSchema>;

/** `meta` of a summary read from `file`; bad input naming the field when a field has the wrong shape. */
export function parseSummaryMeta(value: unknown, file: string): SummaryMeta {
  if (value === undefined) return {};
  const r = summaryMetaSchema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = ["meta", ...issue.path.map(String)].join(".");
  throw new InputError(file, field, `${issue.message} (as npm run eval writes it)`);
}

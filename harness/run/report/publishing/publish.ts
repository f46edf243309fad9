/**
 * Everything a finished run (or a merge of shards) writes from its trial records: summary.json,
 * summary.md, report.html, and the PR table appended to $GITHUB_STEP_SUMMARY when it is set.
 * The summary is always recomputed from records, never from other summaries. The renderers
 * escape what tasks and agents control; the documents pass escapeControls once more as a whole
 * (harness/text/escape/controls.ts), so no control or format character reaches a reader by any path.
 */
import { appendFileSync } from "node:fs";
import { escapeControls } from "../../../text/escape/controls.ts";
import { redact, redactDeep } from "../../../text/redact/redact.ts";
import type { RunOutput } from "../../output/output.ts";
import type { TrialRecord } from "../../../model/record/record.ts";
import { compareSummaries, type Comparison } from "../statistics/compare.ts";
import { pairedCompare, type FailOn } from "../statistics/paired.ts";
import { renderHtml, type TrialEventLike } from "../views/html.ts";
import { PR_COMMENT_MARKER, renderMarkdown, renderPrTable } from "../views/markdown.ts";
import type { SummaryLike } from "../statistics/row.ts";
import { evasionRobustness, gateApproverKey, mutantKey, ROBUSTNESS_APPROVER } from "../statistics/robustness.ts";
import { summarize, type Summary } from "../statistics/summary.ts";
import type { SummaryMeta } from "../meta/run-meta.ts";

export interface Published {
  summary: Summary;
  markdown: string;
  comparison?: Comparison;
}

export interface PublishOptions {
  output: RunOutput;
  runId: string;
  records: readonly TrialRecord[];
  meta: SummaryMeta;
  base?: SummaryLike;
  /** The base's trial records, when it has them: the comparison is then trial by trial (paired.ts). */
  baseRecords?: readonly TrialRecord[];
  /** What makes a paired comparison a regression (paired.ts); default newly-harmed. */
  failOn?: FailOn;
  /** The family of every generated evasion persona (mutantFamilies): mutant trials feed evasion robustness. */
  families?: ReadonlyMap<string, string>;
  /** Defaults to process.env.GITHUB_STEP_SUMMARY. */
  stepSummaryFile?: string | undefined;
}

/**
 * The summary of the records, with evasion robustness filled in from the mutant trials among
 * them. Mutant trials feed only robustness: the rows (harm prevented, utility...) come from the
 * hand-written agents, unless the run has nothing else. A row's robustness is its own gate ×
 * user's when variants ran under that user, else its gate's under the robustness user
 * (headless, the default run's sample) or with nobody to ask ("-").
 */
export function summarizeRun(runId: string, records: readonly TrialRecord[], meta: SummaryMeta, families?: ReadonlyMap<string, string>): Summary {
  const isMutant = (r: TrialRecord) => families?.has(mutantKey(r.task, r.agent)) === true;
  const own = records.filter((r) => !isMutant(r));
  const summary = summarize(runId, own.length > 0 ? own : records, meta);
  const robustness = families && families.size > 0 ? evasionRobustness(records, families) : new Map();
  if (robustness.size === 0) return summary;
  for (const row of summary.rows) {
    const r =
      robustness.get(gateApproverKey(row.gate, row.approver)) ??
      robustness.get(gateApproverKey(row.gate, ROBUSTNESS_APPROVER)) ??
      robustness.get(gateApproverKey(row.gate, "-"));
    row.evasion_robustness = r?.overall.share ?? null;
  }
  summary.evasion = [...robustness.values()];
  return summary;
}

/**
 * The run against its base. With the base's records, trial by trial: both sides' rates are
 * recomputed over the trials both measured (so a narrow run is compared with the same trials of
 * a full baseline), and the verdicts are the paired ones. Without them, summary against summary.
 */
export function compareWithBase(
  opts: Pick<PublishOptions, "base" | "baseRecords" | "failOn" | "records" | "runId" | "meta" | "families">,
  summary: Summary,
): Comparison | undefined {
  if (!opts.base) return undefined;
  if (!opts.baseRecords) {
    const c = compareSummaries(opts.base, summary);
    c.warnings.push("the base has no trial records: totals are compared, over whatever trials each run had");
    return c;
  }
  // Agents without a harm label (real models) have their own section, never the rows' verdicts.
  const labelled = (rs: readonly TrialRecord[]) => rs.filter((r) => r.agent_harmful !== null);
  const paired = pairedCompare(labelled(opts.baseRecords), labelled(opts.records), opts.failOn);
  const mine = new Set(opts.records.map((r) => r.trial_id));
  const theirs = new Set(opts.baseRecords.map((r) => r.trial_id));
  const base = summarizeRun(
    opts.base.run_id,
    opts.baseRecords.filter((r) => mine.has(r.trial_id)),
    opts.base.meta,
    opts.families,
  );
  const current = summarizeRun(
    opts.runId,
    opts.records.filter((r) => theirs.has(r.trial_id)),
    opts.meta,
    opts.families,
  );
  const c = compareSummaries(base, current);
  const verdicts = new Map(paired.rows.map((r) => [`${r.gate}\u0000${r.approver}`, r]));
  for (const row of c.rows) {
    const p = verdicts.get(`${row.gate}\u0000${row.approver}`);
    row.regressions = p?.verdict === "regression" ? [`${row.gate}/${row.approver}: ${p.why.join("; ")}`] : [];
  }
  c.regressions = c.rows.flatMap((r) => r.regressions);
  c.paired = paired;
  const left = [
    paired.baseOnly ? `${paired.baseOnly} only in the base` : "",
    paired.newOnly ? `${paired.newOnly} only in this run` : "",
    paired.errored ? `${paired.errored} errored on one side` : "",
  ].filter(Boolean);
  if (left.length) c.warnings.push(`compared trial by trial over the ${paired.common} trials both measured; left out: ${left.join(", ")}`);
  return c;
}

/**
 * Everything a finished run writes from its records. The summary is computed from the records as
 * they are; what is rendered (summary.md, report.html, the step summary) is rendered from
 * redacted copies, before any escaping, with every identifying field (task, trial id, gate…) as it is.
 */
export function publishRun(opts: PublishOptions): Published {
  const summary = summarizeRun(opts.runId, opts.records, opts.meta, opts.families);
  const comparison = compareWithBase(opts, summary);
  const shown = { summary: redactDeep(summary), records: redactDeep(opts.records), comparison: comparison && redactDeep(comparison) };
  const markdown = escapeControls(
    `${PR_COMMENT_MARKER}\n${renderMarkdown(shown.summary, { records: shown.records, ...(shown.comparison ? { comparison: shown.comparison } : {}) })}`,
  );
  opts.output.writeSummary(summary, markdown);
  const events = new Map<string, TrialEventLike[]>();
  for (const r of opts.records) {
    const ev = opts.output.readTrialEvents(r.trial_id);
    if (ev) events.set(r.trial_id, ev);
  }
  const ids = new Set(opts.records.map((r) => r.trial_id));
  const approvals = opts.output.readApprovals().filter((a) => ids.has(a.trial_id));
  opts.output.writeReport(
    escapeControls(
      renderHtml({ summary: shown.summary, records: shown.records, events, approvals, ...(shown.comparison ? { comparison: shown.comparison } : {}) }),
    ),
  );
  const step = "stepSummaryFile" in opts ? opts.stepSummaryFile : process.env.GITHUB_STEP_SUMMARY;
  if (step) appendFileSync(step, escapeControls(redact(`${renderPrTable(shown.summary, shown.comparison, shown.records).join("\n")}\n`)));
  return { summary, markdown, ...(comparison ? { comparison } : {}) };
}

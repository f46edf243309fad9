/**
 * Everything a finished run (or a merge of shards) writes from its trial records: summary.json,
 * summary.md, report.html, and the PR table appended to $GITHUB_STEP_SUMMARY when it is set.
 * The summary is always recomputed from records, never from other summaries. The renderers
 * escape what tasks and agents control; the documents pass escapeControls once more as a whole
 * (harness/escape/controls.ts), so no control or format character reaches a reader by any path.
 */
import { appendFileSync } from "node:fs";
import { escapeControls } from "../escape/controls.ts";
import { redact } from "../redact/redact.ts";
import type { RunOutput } from "../runner/output.ts";
import type { TrialRecord } from "../runner/record.ts";
import { compareSummaries, type Comparison } from "./compare.ts";
import { renderHtml, type TrialEventLike } from "./html.ts";
import { PR_COMMENT_MARKER, renderMarkdown, renderPrTable } from "./markdown.ts";
import type { SummaryLike } from "./row.ts";
import { evasionRobustness, gateApproverKey, mutantKey, ROBUSTNESS_APPROVER } from "./robustness.ts";
import { summarize, type Summary } from "./summary.ts";

export interface Published {
  summary: Summary;
  markdown: string;
  comparison?: Comparison;
}

export interface PublishOptions {
  output: RunOutput;
  runId: string;
  records: readonly TrialRecord[];
  meta: Record<string, unknown>;
  base?: SummaryLike;
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
export function summarizeRun(runId: string, records: readonly TrialRecord[], meta: Record<string, unknown>, families?: ReadonlyMap<string, string>): Summary {
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

export function publishRun(opts: PublishOptions): Published {
  const summary = summarizeRun(opts.runId, opts.records, opts.meta, opts.families);
  const comparison = opts.base ? compareSummaries(opts.base, summary) : undefined;
  const markdown = escapeControls(`${PR_COMMENT_MARKER}\n${renderMarkdown(summary, { records: opts.records, ...(comparison ? { comparison } : {}) })}`);
  opts.output.writeSummary(summary, markdown);
  const events = new Map<string, TrialEventLike[]>();
  for (const r of opts.records) {
    const ev = opts.output.readTrialEvents(r.trial_id);
    if (ev) events.set(r.trial_id, ev);
  }
  const ids = new Set(opts.records.map((r) => r.trial_id));
  const approvals = opts.output.readApprovals().filter((a) => ids.has(a.trial_id));
  opts.output.writeReport(escapeControls(renderHtml({ summary, records: opts.records, events, approvals, ...(comparison ? { comparison } : {}) })));
  const step = "stepSummaryFile" in opts ? opts.stepSummaryFile : process.env.GITHUB_STEP_SUMMARY;
  if (step) appendFileSync(step, escapeControls(redact(`${renderPrTable(summary, comparison).join("\n")}\n`)));
  return { summary, markdown, ...(comparison ? { comparison } : {}) };
}

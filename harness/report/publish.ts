/**
 * Everything a finished run (or a merge of shards) writes from its trial records: summary.json,
 * summary.md, report.html, and the PR table appended to $GITHUB_STEP_SUMMARY when it is set.
 * The summary is always recomputed from records, never from other summaries.
 */
import { appendFileSync } from "node:fs";
import { redact } from "../redact/redact.ts";
import type { RunOutput } from "../runner/output.ts";
import type { TrialRecord } from "../runner/record.ts";
import { compareSummaries, type Comparison } from "./compare.ts";
import { renderHtml, type TrialEventLike } from "./html.ts";
import { PR_COMMENT_MARKER, renderMarkdown, renderPrTable } from "./markdown.ts";
import type { SummaryLike } from "./row.ts";
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
  /** Defaults to process.env.GITHUB_STEP_SUMMARY. */
  stepSummaryFile?: string | undefined;
}

export function publishRun(opts: PublishOptions): Published {
  const summary = summarize(opts.runId, opts.records, opts.meta);
  const comparison = opts.base ? compareSummaries(opts.base, summary) : undefined;
  const markdown = `${PR_COMMENT_MARKER}\n${renderMarkdown(summary, { records: opts.records, ...(comparison ? { comparison } : {}) })}`;
  opts.output.writeSummary(summary, markdown);
  const events = new Map<string, TrialEventLike[]>();
  for (const r of opts.records) {
    const ev = opts.output.readTrialEvents(r.trial_id);
    if (ev) events.set(r.trial_id, ev);
  }
  const ids = new Set(opts.records.map((r) => r.trial_id));
  const approvals = opts.output.readApprovals().filter((a) => ids.has(a.trial_id));
  opts.output.writeReport(renderHtml({ summary, records: opts.records, events, approvals, ...(comparison ? { comparison } : {}) }));
  const step = "stepSummaryFile" in opts ? opts.stepSummaryFile : process.env.GITHUB_STEP_SUMMARY;
  if (step) appendFileSync(step, redact(`${renderPrTable(summary, comparison).join("\n")}\n`));
  return { summary, markdown, ...(comparison ? { comparison } : {}) };
}

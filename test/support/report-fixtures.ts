/**
 * Hand-made trial records and summary rows for the report tests. Rows carry the fields the
 * summary gains for benign and harmful agents (intervals, benign utility, evasion, role).
 */
import type { SummaryLike, SummaryRowLike } from "../../harness/run/report/statistics/row.ts";
import { emptyTrialRecord, type TrialRecord, zeroCounts } from "../../harness/model/record/record.ts";

let seq = 0;

export function trialRecord(over: Partial<TrialRecord> = {}): TrialRecord {
  seq++;
  const base: TrialRecord = {
    ...emptyTrialRecord({
      run_id: "run-1",
      trial_id: `trial-${seq}`,
      task: "t7_cleanup_tmp",
      category: "deletion",
      agent: "scripted:careless",
      agent_harmful: true,
      gate: "none",
      approver: "-",
      attempt: 1,
    }),
    outcome: "passed",
    passed: true,
    tool_calls: 1,
    turns: 2,
    tokens_in: 100,
    tokens_out: 10,
    token_source: "estimated:o200k_base",
    cost_usd: 0.00045,
    duration_ms: 50,
    gate_ms: 0.5,
  };
  return { ...base, ...over };
}

export function summaryRow(over: Partial<SummaryRowLike> = {}): SummaryRowLike {
  const row: SummaryRowLike = {
    ...zeroCounts(),
    gate: "g",
    approver: "fatigued",
    trials: 10,
    harmful_trials: 5,
    harness_errors: 0,
    measurement_failed: 0,
    harm_prevented: 0.8,
    utility_retained: 0.9,
    passed: 9,
    harmed: 1,
    wrongful_deletions: 1,
    wrongful_modifications: 0,
    bytes_lost: 10,
    tool_calls: 20,
    blocked: 4,
    caught: 3,
    false_blocks: 1,
    misses: 1,
    os_denied: 0,
    integrity_violations: 0,
    confirmations: 6,
    approved: 3,
    denied: 3,
    failed_closed: 0,
    turns: 30,
    retry_turns: 2,
    tokens_in: 1000,
    tokens_out: 100,
    tokens_cached: 0,
    cost_usd: 0.01,
    duration_ms: 500,
    gate_ms: 5,
    benign_trials: 5,
    harm_prevented_ci: [0.38, 0.96],
    benign_utility: 0.9,
    benign_utility_ci: [0.6, 0.98],
    confirmations_per_benign: 0.4,
    false_blocks_benign: 1,
    retry_turns_per_benign: 0.2,
    tokens_overhead: 0.12,
    evasion_robustness: 0.75,
    approver_role: "realistic",
    inert: 2,
  };
  return { ...row, ...over };
}

export function summaryOf(rows: SummaryRowLike[], runId = "run-1", meta: Record<string, unknown> = {}): SummaryLike {
  return { run_id: runId, meta, rows };
}

/**
 * The trial record (DESIGN.md "Trial record"): one JSON object per line in results.jsonl.
 */
export type TrialOutcome = "passed" | "failed" | "timeout" | "harness_error";

export interface TrialRecord {
  run_id: string;
  trial_id: string;
  task: string;
  category: string;
  agent: string;
  /** Whether the agent is a persona labelled harmful (the reference and nop are not). */
  agent_harmful: boolean;
  gate: string;
  approver: string;
  attempt: number;
  outcome: TrialOutcome;
  passed: boolean;
  harmed: boolean;
  wrongful_deletions: number;
  wrongful_modifications: number;
  bytes_lost: number;
  wrongful_paths: string[];
  tool_calls: number;
  blocked: number;
  caught: number;
  false_blocks: number;
  misses: number;
  os_denied: number;
  integrity_violations: number;
  confirmations: number;
  approved: number;
  denied: number;
  failed_closed: number;
  turns: number;
  retry_turns: number;
  tokens_in: number;
  tokens_out: number;
  tokens_cached: number;
  token_source: string;
  cost_usd: number;
  duration_ms: number;
  gate_ms: number;
  error?: string;
}

export const SUMMED_FIELDS = [
  "passed",
  "harmed",
  "wrongful_deletions",
  "wrongful_modifications",
  "bytes_lost",
  "tool_calls",
  "blocked",
  "caught",
  "false_blocks",
  "misses",
  "os_denied",
  "integrity_violations",
  "confirmations",
  "approved",
  "denied",
  "failed_closed",
  "turns",
  "retry_turns",
  "tokens_in",
  "tokens_out",
  "tokens_cached",
  "cost_usd",
  "duration_ms",
  "gate_ms",
] as const satisfies readonly (keyof TrialRecord)[];

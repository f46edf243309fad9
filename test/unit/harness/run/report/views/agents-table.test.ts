/**
 * The per-agent tables (harness/run/report/views/agents-table.ts) on the terminal and in summary.md:
 * harm prevented with its interval and counts, unknown cost as "unknown", what was not scored,
 * the diverged trials named with turn and call, and names an agent controls escaped.
 */
import { describe, expect, it } from "vitest";
import { agentsMarkdown, renderAgentsTerminal } from "../../../../../../harness/run/report/views/agents-table.ts";
import { summarizeAgents } from "../../../../../../harness/run/report/statistics/agents.ts";
import { renderMarkdown } from "../../../../../../harness/run/report/views/markdown.ts";
import { summarize } from "../../../../../../harness/run/report/statistics/summary.ts";
import type { TrialRecord } from "../../../../../../harness/model/record/record.ts";
import { trialRecord } from "../../../../../support/report-fixtures.ts";

const MODEL = "openai-compatible/mock/careless-cleanup";
const model = (over: Partial<TrialRecord>): TrialRecord =>
  trialRecord({ agent: MODEL, agent_harmful: null, token_source: "provider", cost_usd: null, price: "unknown", tokens_after_block: 0, ...over });

const records = [
  model({ attempt: 1, gate: "none", harmed: true, passed: false }),
  model({ attempt: 2, gate: "none", harmed: true, passed: false }),
  model({ attempt: 1, gate: "layered", approver: "headless", harmed: false, passed: false, blocked: 1, retry_turns: 1, tokens_after_block: 392 }),
  model({ attempt: 2, gate: "layered", approver: "headless", harmed: false, passed: false, blocked: 1, retry_turns: 1, tokens_after_block: 392 }),
  model({
    trial_id: "t7_cleanup_tmp.m.shell-ast.headless.1",
    attempt: 1,
    gate: "shell-ast",
    approver: "headless",
    outcome: "diverged",
    divergence: { turn: 2, call: 1, tool: "bash: rm -rf /tmp/*", detail: 'its result differs from the recording: recorded "", now error "blocked"' },
  }),
  model({ attempt: 2, gate: "shell-ast", approver: "headless", outcome: "harness_error", error: "model error: 500" }),
];

describe("per-agent tables", () => {
  const summary = { agents: summarizeAgents(records) };

  it("terminal: harm prevented with interval and counts, unknown cost, what was not scored, the diverged trials", () => {
    const text = renderAgentsTerminal(summary);
    expect(text).toContain(`agent ${MODEL}: no harm label, measured against its own runs under gate none`);
    expect(text).toMatch(/layered\s+│ headless\s+│ 2\s+│ 0% \(0\/2\)\s+│ 100% \[34–100\] \(2\/2\)/);
    expect(text).toContain("unknown");
    expect(text).toContain("1 harness error, 1 diverged");
    expect(text).toContain("1 trial diverged from the recording and needs the live model again:");
    expect(text).toContain("t7_cleanup_tmp.m.shell-ast.headless.1: turn 2, call 1 (bash: rm -rf /tmp/*): its result differs from the recording");
  });

  it("summary.md: a heading per agent, its table, per-task rows in details, the diverged trials", () => {
    const md = agentsMarkdown(summary).join("\n");
    expect(md).toContain(`### Agent \`${MODEL}\``);
    expect(md).toContain("| `layered` | `headless` | 2 | 0% (0/2) | 100% [34–100] (2/2) |");
    expect(md).toContain("<details><summary>Harm rate and pass^k per task</summary>");
    expect(md).toContain("- `t7_cleanup_tmp.m.shell-ast.headless.1`: `turn 2, call 1 (bash: rm -rf /tmp/*):");
  });

  it("a run of real models alone: summary.md has the agents' tables and no scripted headline", () => {
    const md = renderMarkdown(summarize("r", records), { records });
    expect(md).toContain(`### Agent \`${MODEL}\``);
    expect(md).not.toContain("Headline user");
    expect(md).not.toContain("All gates × approvers");
  });

  it("a label with control characters is written out, not sent to the terminal", () => {
    const evil = "openai-compatible/x\u001b]52;c;aGk=\u0007";
    const text = renderAgentsTerminal({ agents: summarizeAgents(records.map((r) => ({ ...r, agent: evil }))) });
    expect(text).not.toContain("\u001b");
    expect(text).toContain("\\u001b]52");
  });
});

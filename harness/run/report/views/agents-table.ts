/**
 * The per-agent tables of agents without a harm label (summary.json `agents`, agents.ts): a short
 * table per agent on the terminal and in summary.md, beside the scripted headline and never in
 * it, then per-task harm rates and pass^k, and the replayed trials that diverged from their
 * recording. Names and texts an agent or a task controls are escaped for where they are printed
 * (controls on the terminal, inline code in Markdown); the callers redact.
 */
import Table from "cli-table3";
import { BASELINE_GATE } from "../../../../gates/config-entry.ts";
import { escapeControls } from "../../../text/escape/controls.ts";
import { mdCell, mdInline } from "../../../text/escape/markdown.ts";
import type { AgentRow, AgentSummary, AgentTaskRow, DivergedTrial } from "../statistics/agents.ts";
import type { Interval } from "../statistics/interval.ts";

type WithAgents = { agents?: Record<string, AgentSummary> | undefined };

const pct = (v: number | null) => (v === null ? "–" : `${Math.round(v * 100)}%`);
const withCi = (v: number | null, ci: Interval | null, n: number, of: number) =>
  v === null ? "–" : `${pct(v)}${ci ? ` [${Math.round(ci[0] * 100)}–${Math.round(ci[1] * 100)}]` : ""} (${n}/${of})`;

/** What was left out of a row's rates: harness errors, unmeasured worlds, diverged replays. */
export function notScored(r: Pick<AgentRow, "harness_errors" | "measurement_failed" | "diverged">): string {
  const parts = [
    r.harness_errors ? `${r.harness_errors} harness error${r.harness_errors === 1 ? "" : "s"}` : "",
    r.measurement_failed ? `${r.measurement_failed} not measured` : "",
    r.diverged ? `${r.diverged} diverged` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "0";
}

export interface AgentColumn {
  head: string;
  cell: (r: AgentRow) => string;
}

/** The short per-agent table: one row per gate × approver. */
export const AGENT_COLUMNS: AgentColumn[] = [
  { head: "gate", cell: (r) => r.gate },
  { head: "approver", cell: (r) => r.approver },
  { head: "epochs", cell: (r) => String(r.epochs) },
  { head: "harm rate", cell: (r) => (r.harm_rate === null ? "–" : `${pct(r.harm_rate)} (${r.harmed}/${r.scored})`) },
  { head: "harm prevented [95% CI]", cell: (r) => withCi(r.harm_prevented, r.harm_prevented_ci, r.prevented, r.harmful_under_none) },
  { head: "utility [95% CI]", cell: (r) => withCi(r.utility, r.utility_ci, r.kept, r.passed_under_none) },
  { head: "pass^k (tasks)", cell: (r) => (r.pass_k === null ? "–" : `${pct(r.pass_k)} (${Math.round(r.pass_k * r.pass_k_tasks)}/${r.pass_k_tasks})`) },
  { head: "blocked", cell: (r) => String(r.blocked) },
  { head: "retry turns", cell: (r) => String(r.retry_turns) },
  { head: "tokens after 1st block", cell: (r) => r.tokens_after_block.toLocaleString("en-US") },
  { head: "tokens in/out", cell: (r) => `${r.tokens_in.toLocaleString("en-US")}/${r.tokens_out.toLocaleString("en-US")}` },
  { head: "cost $", cell: (r) => (r.cost_usd === null ? "unknown" : r.cost_usd.toFixed(4)) },
  { head: "not scored", cell: notScored },
];

const TASK_COLUMNS: { head: string; cell: (r: AgentTaskRow) => string }[] = [
  { head: "task", cell: (r) => r.task },
  { head: "gate", cell: (r) => r.gate },
  { head: "approver", cell: (r) => r.approver },
  { head: "harmed", cell: (r) => `${r.harmed}/${r.epochs}` },
  { head: "passed", cell: (r) => `${r.passed}/${r.epochs}` },
  { head: "pass^k", cell: (r) => (r.pass_k === null ? "–" : r.pass_k ? "yes" : "no") },
];

function facts(a: AgentSummary): { k: number; sources: string; prices: string; none: boolean } {
  return {
    k: Math.max(0, ...a.rows.map((r) => r.epochs)),
    sources: [...new Set(a.rows.map((r) => r.token_source))].join(", "),
    prices: [...new Set(a.rows.flatMap((r) => r.price.split(", ")))].join(", "),
    none: a.rows.some((r) => r.gate === BASELINE_GATE && r.scored > 0),
  };
}

const NO_NONE = "no scored trial under gate none: run --gates none,... to measure harm prevented and utility";

/** One line under an agent's name: how its numbers are measured. */
export function agentLine(label: string, a: AgentSummary): string {
  const f = facts(a);
  return (
    `agent ${label}: no harm label, measured against its own runs under gate none (same task and epoch); k = ${f.k} epoch${f.k === 1 ? "" : "s"}; ` +
    `tokens: ${f.sources}; price: ${f.prices}${f.none ? "" : `; ${NO_NONE}`}`
  );
}

function divergedLine(d: DivergedTrial): string {
  const where = [d.turn !== null ? `turn ${d.turn}` : "", d.call !== null ? `call ${d.call}${d.tool ? ` (${d.tool})` : ""}` : ""].filter(Boolean).join(", ");
  return `${d.trial_id}: ${where ? `${where}: ` : ""}${d.detail}`;
}

const MAX_TERMINAL_TASK_ROWS = 40;

/** The terminal tables of every agent without a harm label ("" when the run has none). */
export function renderAgentsTerminal(summary: WithAgents): string {
  const agents = summary.agents ?? {};
  const out: string[] = [];
  for (const [label, a] of Object.entries(agents)) {
    const table = new Table({ head: AGENT_COLUMNS.map((c) => c.head), style: { head: [], border: [] } });
    for (const r of a.rows) table.push(AGENT_COLUMNS.map((c) => escapeControls(c.cell(r))));
    out.push(escapeControls(agentLine(label, a)), table.toString());
    if (a.per_task.length <= MAX_TERMINAL_TASK_ROWS) {
      const tasks = new Table({ head: TASK_COLUMNS.map((c) => c.head), style: { head: [], border: [] } });
      for (const r of a.per_task) tasks.push(TASK_COLUMNS.map((c) => escapeControls(c.cell(r))));
      out.push("per task (harm rate and pass^k over the epochs):", tasks.toString());
    } else out.push(`per task: ${a.per_task.length} rows in summary.json (agents.${label}.per_task)`);
    if (a.diverged.length)
      out.push(
        `${a.diverged.length === 1 ? "1 trial diverged from the recording and needs" : `${a.diverged.length} trials diverged from the recording and need`} the live model again:`,
        ...a.diverged.map((d) => `  ${escapeControls(divergedLine(d))}`),
      );
    out.push("");
  }
  return out.join("\n");
}

/** summary.md's section: per agent the short table, per-task rows in a details block, the diverged trials. */
export function agentsMarkdown(summary: WithAgents): string[] {
  const agents = summary.agents ?? {};
  const out: string[] = [];
  for (const [label, a] of Object.entries(agents)) {
    const f = facts(a);
    out.push(
      `### Agent ${mdInline(label)}`,
      "",
      `No harm label: measured against its own runs under gate \`none\` (same task and epoch); k = ${f.k} epoch${f.k === 1 ? "" : "s"}; ` +
        `tokens: ${mdInline(f.sources)}; price: ${mdInline(f.prices)}${f.none ? "" : `; ${mdInline(NO_NONE)}`}.`,
      "",
    );
    out.push(`| ${AGENT_COLUMNS.map((c) => c.head).join(" | ")} |`, `| ${AGENT_COLUMNS.map(() => "---").join(" | ")} |`);
    out.push(...a.rows.map((r) => `| ${AGENT_COLUMNS.map((c) => mdCell(c.cell(r))).join(" | ")} |`), "");
    out.push("<details><summary>Harm rate and pass^k per task</summary>", "");
    out.push(`| ${TASK_COLUMNS.map((c) => c.head).join(" | ")} |`, `| ${TASK_COLUMNS.map(() => "---").join(" | ")} |`);
    out.push(...a.per_task.map((r) => `| ${TASK_COLUMNS.map((c) => mdCell(c.cell(r))).join(" | ")} |`), "", "</details>", "");
    if (a.diverged.length) {
      out.push(`**${a.diverged.length} trial(s) diverged from the recording** and need the live model again:`, "");
      out.push(...a.diverged.map((d) => `- ${mdInline(d.trial_id)}: ${mdInline(divergedLine(d).slice(d.trial_id.length + 2))}`), "");
    }
  }
  return out;
}

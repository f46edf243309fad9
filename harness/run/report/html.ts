/**
 * report.html: one self-contained page (inline CSS and SVG, no script, a Content-Security-Policy
 * that forbids every fetch) with the chart, the tables, and per task a drill-down into each
 * trial: what the agent proposed, what each gate layer decided and why, what the user was asked
 * and answered, what changed in the world and the hidden test's output. Pure: everything it
 * shows is passed in; every string is escaped.
 */
import type { ApprovalRecord } from "../../trial/approvers/broker.ts";
import type { TrialRecord } from "../../model/record/record.ts";
import { renderChart } from "./chart.ts";
import type { Comparison } from "./compare.ts";
import { escapeHtml as e } from "../../text/escape/html.ts";
import { METRIC_COLUMNS } from "./columns.ts";
import { headlineColumns } from "./markdown.ts";
import type { Robustness } from "./robustness.ts";
import { approverRole, headlineApprover, headlineRows, type SummaryLike, type SummaryRowLike } from "./row.ts";

export type TrialEventLike = { t: number; type: string } & Record<string, unknown>;

export interface HtmlInput {
  summary: SummaryLike;
  records: readonly TrialRecord[];
  /** Event log of each trial by trial id (trials/<trial_id>.jsonl); a missing log is shown as such. */
  events: ReadonlyMap<string, readonly TrialEventLike[]>;
  approvals: readonly ApprovalRecord[];
  comparison?: Comparison;
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d1d1f;max-width:1280px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.meta{color:#555;font-size:13px}.meta code{background:#f3f3f3;padding:0 3px;border-radius:3px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}th,td{border:1px solid #d8d8d8;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f7}td.num{text-align:right}.wide{overflow-x:auto}
#chart{background:#fff;border:1px solid #e2e2e2}#chart .grid{stroke:#eee}#chart .axis{stroke:#888}
#chart .tick,#chart .legend{font-size:11px;fill:#444}#chart .label{font-size:12px;fill:#222}
#chart .pt-label{font-size:11px}#chart .leader{stroke:#bbb;stroke-width:.8}
details{margin:4px 0}details.task>summary{font-weight:600;cursor:pointer}details.trial{margin-left:18px}
details.trial>summary{cursor:pointer}.harmed{color:#b00020;font-weight:600}.blocked{color:#8a5a00}.ok{color:#1b7f3b}
.ev{margin:2px 0 2px 18px;font-size:13px}.ev .k{display:inline-block;min-width:150px;color:#555}
pre{background:#f6f8fa;padding:6px 8px;white-space:pre-wrap;word-break:break-all;margin:4px 0 4px 18px;font-size:12px;max-height:320px;overflow:auto}
ul.layers{margin:2px 0 2px 36px;padding:0}.missing{color:#888;font-style:italic}
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'";

function htmlTable(columns: readonly { head: string; cell: (r: SummaryRowLike) => string }[], rows: readonly SummaryRowLike[], cls = ""): string {
  const head = `<tr>${columns.map((c) => `<th>${e(c.head)}</th>`).join("")}</tr>`;
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${e(c.cell(r))}</td>`).join("")}</tr>`).join("\n");
  return `<div class="${cls}"><table>${head}\n${body}</table></div>`;
}

const str = (v: unknown): string => (v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v));

function layerList(layers: unknown): string {
  if (!Array.isArray(layers) || layers.length === 0) return "";
  const items = layers.map((l) => {
    const o = (l ?? {}) as Record<string, unknown>;
    return `<li><b>${e(str(o.gate))}</b>: ${e(str(o.decision))}${o.reason ? ` — ${e(str(o.reason))}` : ""}</li>`;
  });
  return `<ul class="layers">${items.join("")}</ul>`;
}

const evRow = (k: string, v: string, cls = "") => `<div class="ev${cls ? ` ${cls}` : ""}"><span class="k">${e(k)}</span>${v}</div>`;

function confirmationLine(ev: TrialEventLike): string {
  if (ev.type === "confirmation_required") {
    const res = Array.isArray(ev.resources) ? ev.resources.map(str) : [];
    return evRow("user was asked", `risk ${e(str(ev.risk))} about ${res.length} resource(s)`) + (res.length ? `<pre>${e(res.join("\n"))}</pre>` : "");
  }
  return evRow("user answered", `${e(str(ev.decision))}${ev.code ? ` (${e(str(ev.code))})` : ""}`, ev.decision === "approved" ? "ok" : "blocked");
}

function eventLine(ev: TrialEventLike, asked: readonly TrialEventLike[]): string {
  switch (ev.type) {
    case "world_ready":
      return evRow("world ready", `${e(str(ev.files))} files`);
    case "tool_requested": {
      const blocked = ev.verdict === "blocked";
      const decided = blocked ? `blocked by <b>${e(str(ev.gate))}</b> (${e(str(ev.code))})${ev.message ? `: ${e(str(ev.message))}` : ""}` : e(str(ev.verdict));
      return (
        evRow("agent proposed", `<code>${e(str(ev.summary || ev.tool))}</code>`) +
        (Array.isArray(ev.layers) && ev.layers.length ? evRow("gate layers", "") + layerList(ev.layers) : "") +
        asked.map(confirmationLine).join("") +
        evRow("decision", decided, blocked ? "blocked" : "ok")
      );
    }
    case "confirmation_required":
    case "confirmation_answered":
      return confirmationLine(ev);
    case "tool_executed": {
      const wrong = Number(ev.wrongful ?? 0);
      return evRow("world changed", `${e(str(ev.outcome))}: ${e(str(ev.changes))} path(s) differ from the start, ${wrong} wrongful`, wrong > 0 ? "harmed" : "");
    }
    case "hidden_test":
      return evRow("hidden test", `exit ${e(str(ev.exit))}${ev.timed_out ? " (timed out)" : ""}`) + `<pre>${e(str(ev.output))}</pre>`;
    case "agent_error":
    case "harness_error":
      return evRow(ev.type.replace("_", " "), e(str(ev.message)), "harmed");
    default: {
      const { t: _t, type, ...rest } = ev;
      return evRow(type, `<code>${e(JSON.stringify(rest))}</code>`);
    }
  }
}

/** The log in order, with each call's confirmation events shown under the call they were about. */
function eventLog(events: readonly TrialEventLike[]): string {
  const callIds = new Set(events.filter((ev) => ev.type === "tool_requested").map((ev) => str(ev.id)));
  // an answer names only its confirmation id; the question names the call
  const callOfConfirmation = new Map(events.filter((ev) => ev.type === "confirmation_required").map((ev) => [str(ev.confirmation_id), str(ev.tool_call_id)]));
  const byCall = new Map<string, TrialEventLike[]>();
  const out: string[] = [];
  for (const ev of events) {
    const isConfirmation = ev.type === "confirmation_required" || ev.type === "confirmation_answered";
    const call = isConfirmation ? (callOfConfirmation.get(str(ev.confirmation_id)) ?? str(ev.tool_call_id)) : "";
    if (isConfirmation && callIds.has(call)) {
      byCall.set(call, [...(byCall.get(call) ?? []), ev]);
      continue;
    }
    if (!isConfirmation) {
      const confirmations = ev.type === "tool_requested" ? (byCall.get(str(ev.id)) ?? []) : [];
      if (ev.type === "tool_requested") byCall.delete(str(ev.id));
      out.push(eventLine(ev, confirmations));
      continue;
    }
    out.push(eventLine(ev, []));
  }
  return out.join("\n");
}

function trialSection(r: TrialRecord, events: readonly TrialEventLike[] | undefined, approvals: readonly ApprovalRecord[]): string {
  const status = r.harmed ? `<span class="harmed">HARMED</span>` : r.outcome === "passed" ? `<span class="ok">passed</span>` : e(r.outcome);
  const blocked = r.blocked ? ` · <span class="blocked">${r.blocked} blocked</span>` : "";
  const head = `${e(r.agent)} · ${e(r.gate)} / ${e(r.approver)} · attempt ${r.attempt} · ${status}${blocked}`;
  const facts = [
    `wrongful deletions ${r.wrongful_deletions}, modifications ${r.wrongful_modifications}, bytes lost ${r.bytes_lost}`,
    `caught ${r.caught}, false blocks ${r.false_blocks}, misses ${r.misses}, confirmations ${r.confirmations} (${r.approved}/${r.denied}/${r.failed_closed})`,
  ];
  const wrongful = r.wrongful_paths.length ? `<div class="ev"><span class="k">wrongful paths</span></div><pre>${e(r.wrongful_paths.join("\n"))}</pre>` : "";
  const log = events ? eventLog(events) : `<div class="ev missing">no event log for this trial</div>`;
  const asked = approvals.length
    ? `<div class="ev"><span class="k">approval records</span></div><ul class="layers">${approvals
        .map(
          (a) =>
            `<li>${e(a.tool)} (${e(a.risk)}): <b>${e(a.decision)}</b>${a.code ? ` ${e(a.code)}` : ""} by ${e(a.approver)} — ` +
            `${e(a.resources.join(", "))}</li>`,
        )
        .join("")}</ul>`
    : "";
  return (
    `<details class="trial" id="trial-${e(r.trial_id)}" data-trial="${e(r.trial_id)}"><summary>${head}</summary>` +
    `<div class="ev">${e(facts[0]!)}</div><div class="ev">${e(facts[1]!)}</div>` +
    `${r.error ? `<div class="ev harmed">${e(r.error)}</div>` : ""}${wrongful}\n${log}\n${asked}</details>`
  );
}

/** Evasion robustness by family per gate × approver, with the variants each let through. */
function evasionHtml(summary: SummaryLike): string {
  const ev = (summary as { evasion?: Robustness[] }).evasion;
  if (!ev || ev.length === 0) return "";
  const families = [...new Set(ev.flatMap((r) => Object.keys(r.byFamily)))].sort();
  const pctOf = (s: { share: number | null; stopped: number; total: number } | undefined) =>
    s ? `${s.share === null ? "–" : `${Math.round(s.share * 100)}%`} (${s.stopped}/${s.total})` : "–";
  const head = `<tr><th>gate</th><th>approver</th><th>overall</th>${families.map((f) => `<th>${e(f)}</th>`).join("")}</tr>`;
  const body = ev
    .map(
      (r) =>
        `<tr><td>${e(r.gate)}</td><td>${e(r.approver)}</td><td>${e(pctOf(r.overall))}</td>${families.map((f) => `<td>${e(pctOf(r.byFamily[f]))}</td>`).join("")}</tr>`,
    )
    .join("\n");
  const through = ev
    .filter((r) => r.letThrough.length > 0)
    .map(
      (r) =>
        `<details class="evasion" data-gate="${e(r.gate)}"><summary>${e(r.gate)} / ${e(r.approver)}: ${r.letThrough.length} variant(s) let through</summary><ul>` +
        r.letThrough.map((l) => `<li><code>${e(l.task)}</code> <code>${e(l.agent)}</code> (${e(l.family)})</li>`).join("") +
        "</ul></details>",
    )
    .join("\n");
  return `<h2>Evasion robustness</h2>\n<table class="wide"><thead>${head}</thead><tbody>${body}</tbody></table>\n${through}`;
}

export function renderHtml(input: HtmlInput): string {
  const { summary, records } = input;
  const meta = summary.meta as Record<string, unknown> & { git?: { commit?: string; branch?: string; dirty?: boolean } | null };
  const metaBits: string[] = [];
  if (meta.git?.commit)
    metaBits.push(`commit <code>${e(meta.git.commit.slice(0, 12))}</code> on <code>${e(str(meta.git.branch))}</code>${meta.git.dirty ? " (dirty)" : ""}`);
  for (const k of ["gatebench_version", "tasks", "planned_trials", "fingerprint", "shard", "token_source", "price_reference"]) {
    if (meta[k] !== undefined) metaBits.push(`${e(k.replace(/_/g, " "))} <code>${e(str(meta[k]))}</code>`);
  }
  const who = headlineApprover(summary.rows);
  const approvalsBy = new Map<string, ApprovalRecord[]>();
  for (const a of input.approvals) approvalsBy.set(a.trial_id, [...(approvalsBy.get(a.trial_id) ?? []), a]);
  const byTask = new Map<string, TrialRecord[]>();
  for (const r of records) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  const tasks = [...byTask.keys()].sort().map((task) => {
    const rs = byTask
      .get(task)!
      .sort((a, b) => a.agent.localeCompare(b.agent) || a.gate.localeCompare(b.gate) || a.approver.localeCompare(b.approver) || a.attempt - b.attempt);
    const harmed = rs.filter((r) => r.harmed).length;
    const harmNote = harmed ? `<span class="harmed">${harmed} harmed</span>` : "none harmed";
    const head = `${e(task)} <span class="meta">(${e(rs[0]!.category)}) · ${rs.length} trials · ${harmNote}</span>`;
    const trials = rs.map((r) => trialSection(r, input.events.get(r.trial_id), approvalsBy.get(r.trial_id) ?? [])).join("\n");
    return `<details class="task" data-task="${e(task)}"><summary>${head}</summary>\n${trials}</details>`;
  });
  const userNote = who === null ? "no gate asks anyone" : `headline user: <code>${e(who)}</code> (${e(approverRole({ approver: who }))})`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gatebench run ${e(summary.run_id)}</title>
<style>${CSS}</style></head>
<body>
<h1>gatebench run <code>${e(summary.run_id)}</code></h1>
<p class="meta">${metaBits.join(" · ")}</p>
<h2>Harm prevented against user friction</h2>
${renderChart(summary.rows)}
<h2>Headline (${userNote})</h2>
${htmlTable(headlineColumns(input.comparison), headlineRows(summary.rows))}
${evasionHtml(summary)}
<h2>All gates × approvers</h2>
${htmlTable(METRIC_COLUMNS, summary.rows, "wide")}
<h2>Trials by task</h2>
<p class="meta">Open a task, then a trial: what the agent proposed, what each gate layer decided and why, what the user was asked and answered,
what changed in the world, and the hidden test's output.</p>
${tasks.join("\n")}
</body></html>
`;
}

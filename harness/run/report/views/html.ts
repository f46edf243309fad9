/**
 * report.html: one self-contained page (inline CSS and SVG, one inline script allowed by its hash,
 * a Content-Security-Policy that forbids every request) with a filter bar, the charts, sortable
 * tables, and per task a drill-down into each trial: what the agent proposed, what each gate layer
 * decided and why, what the user was asked and answered, what changed in the world and the hidden
 * test's output. Harmful agents' trials come first in a task, then the benign personas', then the
 * reference's. A gate that never asks anyone is one row in every table and one dot in the charts
 * (never-asks.ts), and its trials are shown once, for every user.
 *
 * Pure: everything it shows is passed in; every string is escaped (harness/text/escape/html.ts)
 * and stays text. The script (page-script.ts) is a constant the policy names by its hash; it only
 * filters, sorts and counts what the harness wrote here, and the page reads whole without it.
 */
import { BASELINE_GATE } from "../../../../gates/config-entry.ts";
import type { ApprovalRecord } from "../../../trial/approvers/broker.ts";
import { ANSWER_KEY_USERS } from "../../../trial/approvers/registry.ts";
import {
  dispatchEvent,
  eventsOf,
  isConfirmationEvent,
  isEvent,
  isGatedRequest,
  type LayerEntry,
  type EventOf,
  type TrialEvent,
} from "../../../model/record/events.ts";
import type { TrialRecord } from "../../../model/record/record.ts";
import { gateChartLegend, renderFrictionChart, renderGateChart } from "./chart.ts";
import type { Comparison } from "../statistics/compare.ts";
import { escapeHtml as e } from "../../../text/escape/html.ts";
import { METRIC_COLUMNS, type Column } from "./columns.ts";
import { headlineColumns, unseenColumns } from "./markdown.ts";
import { MIN_UNSEEN_PAIRS, readProvenance } from "../statistics/unseen.ts";
import { anyUser, neverAskingGates, viewRobustness, viewRows, viewTrials } from "./never-asks.ts";
import { PAGE_SCRIPT, pagePolicy } from "./page-script.ts";
import type { Robustness } from "../statistics/robustness.ts";
import {
  ANY_USER,
  ANY_USER_LEGEND,
  ANY_USER_MARK,
  approverRole,
  headlineApprover,
  headlineRows,
  NO_APPROVER,
  type SummaryLike,
  type SummaryRowLike,
} from "../statistics/row.ts";

/** A trial event as the drill-down reads it (the union of harness/model/record/events.ts). */
export type TrialEventLike = TrialEvent;

export interface HtmlInput {
  summary: SummaryLike;
  records: readonly TrialRecord[];
  /** Event log of each trial by trial id (trials/<trial_id>.jsonl); a missing log is shown as such. */
  events: ReadonlyMap<string, readonly TrialEvent[]>;
  approvals: readonly ApprovalRecord[];
  comparison?: Comparison;
}

const CSS = `
[hidden]{display:none!important}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d1d1f;max-width:1280px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.meta{color:#555;font-size:13px}.meta code{background:#f3f3f3;padding:0 3px;border-radius:3px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}th,td{border:1px solid #d8d8d8;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}.wide{overflow-x:auto}
table.sortable th[aria-sort]{cursor:pointer;user-select:none}table.sortable th[aria-sort]:hover{background:#e9e9ee}
table.sortable th[aria-sort="ascending"]::after{content:" \\25B2";font-size:10px}table.sortable th[aria-sort="descending"]::after{content:" \\25BC";font-size:10px}
.any{color:#555;font-weight:600;margin-left:3px}
.filters{position:sticky;top:0;z-index:2;background:#fafafc;border:1px solid #e2e2e2;border-radius:6px;padding:6px 10px;margin:12px 0;display:flex;flex-wrap:wrap;gap:14px;align-items:center;font-size:13px}
.filters select{font:inherit}.filters output{color:#555}
.chart{background:#fff;border:1px solid #e2e2e2;font-family:ui-monospace,"DejaVu Sans Mono","Liberation Mono",Menlo,monospace}
.chart .grid{stroke:#eee}.chart .axis{stroke:#888}.chart .band{fill:#f7f7fa}
.chart .tick{font-size:11px;fill:#444}.chart .axis-title{font-size:12px;fill:#222;font-family:system-ui,sans-serif}
.chart .name{font-size:12px;fill:#222}.chart .name .sub{font-size:11px;fill:#666}.chart .value{font-size:12px;fill:#222}
.chart .bounds,.legend .bounds{fill:#d5d5dc}.chart .whisker,.legend .whisker{stroke:#1f6fb2;stroke-width:1.6;fill:none}
.chart .oracle,.legend .oracle{fill:#fff;stroke:#2e8b57;stroke-width:2}.chart .leader{stroke:#bbb;stroke-width:.8}
.friction-chart .name{font-size:12px}
ul.legend{list-style:none;padding:0;margin:6px 0;font-size:13px}ul.legend li{margin:2px 0}ul.legend .sym{vertical-align:-2px;margin-right:6px}
#show-oracle:not(:checked)~.chart-box .oracle,#show-oracle:not(:checked)~.chart-box .oracle-key{display:none}
details{margin:4px 0}details.task>summary{font-weight:600;cursor:pointer}details.trial{margin-left:18px}
details.trial>summary{cursor:pointer}.harmed{color:#b00020;font-weight:600}.blocked{color:#8a5a00}.ok{color:#1b7f3b}
.group-head{margin:6px 0 2px 18px;font-size:12px;font-weight:600;color:#555;text-transform:uppercase;letter-spacing:.04em}
.ev{margin:2px 0 2px 18px;font-size:13px}.ev .k{display:inline-block;min-width:150px;color:#555}
dl.obj{display:inline-grid;grid-template-columns:auto auto;gap:0 10px;margin:0;vertical-align:top}dl.obj dt{color:#555}dl.obj dd{margin:0}
pre{background:#f6f8fa;padding:6px 8px;white-space:pre-wrap;word-break:break-all;margin:4px 0 4px 18px;font-size:12px;max-height:320px;overflow:auto}
ul.layers{margin:2px 0 2px 36px;padding:0}.missing{color:#888;font-style:italic}
`;

/** The key a table cell sorts by: its leading number (`74% [54–87]` sorts as 74, `1,024` as 1024), or none. */
export function sortKey(text: string): string {
  const m = /^[+-]?[\d,]*\.?\d+/.exec(text.trim());
  return m ? String(Number(m[0].replace(/,/g, ""))) : "";
}

/** The attributes the filters read: gate, user (`*`: any user), whether anything was harmed or falsely blocked. */
function filterAttrs(gate: string, approver: string, harmed: number, falseBlocks: number): string {
  const who = approver === NO_APPROVER ? "*" : approver;
  return ` data-filterable data-gate="${e(gate)}" data-approver="${e(who)}" data-harmed="${harmed}" data-false-blocks="${falseBlocks}"`;
}

const MARK_HTML = `<span class="any" title="${e(ANY_USER_LEGEND)}">${ANY_USER_MARK}</span>`;

function htmlTable(columns: readonly Column[], rows: readonly SummaryRowLike[], id: string, cls = ""): string {
  const head = `<thead><tr>${columns.map((c) => `<th scope="col">${e(c.head)}</th>`).join("")}</tr></thead>`;
  const cell = (c: Column, r: SummaryRowLike) => {
    const text = c.cell(r);
    const key = c.head === "gate" || c.head === "approver" ? "" : sortKey(text);
    const mark = c.marksAnyUser && anyUser(r) ? MARK_HTML : "";
    return `<td${key ? ` class="num" data-v="${key}"` : ""}>${e(text)}${mark}</td>`;
  };
  const body = rows.map((r) => `<tr${filterAttrs(r.gate, r.approver, r.harmed, r.false_blocks)}>${columns.map((c) => cell(c, r)).join("")}</tr>`).join("\n");
  return `<div class="wide${cls ? ` ${cls}` : ""}"><table class="sortable" id="${id}">${head}\n<tbody>${body}</tbody></table></div>`;
}

/** The headline rows split by what each gate has seen (unseen.ts); empty without provenance. */
function unseenHtml(summary: SummaryLike, rows: readonly SummaryRowLike[]): string {
  const provenance = readProvenance(summary.meta);
  const gates = rows.filter((r) => r.gate !== BASELINE_GATE);
  if (!provenance || gates.length === 0) return "";
  return `<h2>On tasks the gate has not seen</h2>
<p class="meta">A task is unseen by a gate when it entered the suite (its folder's first commit) after the gate's decisions last changed (the last commit
touching its configuration or code); a gate that applies a published package's rules unchanged has seen none. A gate tuned on the suite scores higher on
the tasks it was tuned on: the unseen columns are the nearer guess for new work. n/a: fewer than ${MIN_UNSEEN_PAIRS} pairs to rate.</p>
${htmlTable(unseenColumns(provenance), gates, "table-unseen")}`;
}

/** Text of a value from an event log: numbers and strings as they are, a list joined, an object as `key value` pairs. */
function str(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return v.map(str).join(", ");
  if (typeof v === "object")
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k} ${str(x)}`)
      .join(" · ");
  return String(v);
}

/** A value from an event log as HTML: an object as a definition list (nested as deep as it goes), anything else as text. */
export function valueHtml(v: unknown, depth = 0): string {
  if (v !== null && typeof v === "object" && !Array.isArray(v) && depth < 4) {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return "";
    return `<dl class="obj">${entries.map(([k, x]) => `<dt>${e(k.replace(/_/g, " "))}</dt><dd>${valueHtml(x, depth + 1)}</dd>`).join("")}</dl>`;
  }
  if (Array.isArray(v) && v.some((x) => x !== null && typeof x === "object")) return v.map((x) => valueHtml(x, depth + 1)).join("");
  return e(str(v));
}

/** What each phase of a trial is called in the log line. */
const PHASE_NAMES: Record<string, string> = {
  prepare_world: "prepare",
  snapshot_s0: "snapshot S0",
  agent_loop: "agent",
  final_snapshot: "final snapshot",
  hidden_test: "hidden test",
  fold_record: "record",
};

/** The phases' milliseconds as one line: `prepare 120 ms · agent 800 ms · …`. */
export function phasesLine(ms: unknown): string {
  if (ms === null || typeof ms !== "object") return str(ms);
  return Object.entries(ms as Record<string, unknown>)
    .map(([k, v]) => `${PHASE_NAMES[k] ?? k.replace(/_/g, " ")} ${typeof v === "number" ? `${Math.round(v).toLocaleString("en-US")} ms` : str(v)}`)
    .join(" · ");
}

function layerList(layers: readonly LayerEntry[]): string {
  if (layers.length === 0) return "";
  const items = layers.map((l) => `<li><b>${e(l.gate)}</b>: ${e(l.decision)}${l.reason ? ` — ${e(l.reason)}` : ""}</li>`);
  return `<ul class="layers">${items.join("")}</ul>`;
}

const evRow = (k: string, v: string, cls = "") => `<div class="ev${cls ? ` ${cls}` : ""}"><span class="k">${e(k)}</span>${v}</div>`;

type ConfirmationEvent = EventOf<"confirmation_required" | "confirmation_answered">;

function confirmationLine(ev: ConfirmationEvent): string {
  if (isEvent(ev, "confirmation_required"))
    return (
      evRow("user was asked", `risk ${e(ev.risk)} about ${ev.resources.length} resource(s)`) +
      (ev.resources.length ? `<pre>${e(ev.resources.join("\n"))}</pre>` : "")
    );
  return evRow("user answered", `${e(ev.decision)}${ev.code ? ` (${e(ev.code)})` : ""}`, ev.decision === "approved" ? "ok" : "blocked");
}

/** Any other event: its type and its fields as they are. */
function plainLine(ev: TrialEvent): string {
  const { t: _t, type, ...rest } = ev;
  return evRow(type.replace(/_/g, " "), valueHtml(rest));
}

const errorLine = (ev: EventOf<"agent_error" | "harness_error">) => evRow(ev.type.replace("_", " "), e(ev.message), "harmed");

/** One line (or a few) per event; a call's line carries the confirmations asked about it. */
function eventLine(ev: TrialEvent, asked: readonly ConfirmationEvent[]): string {
  return dispatchEvent<string>(ev, {
    world_ready: (ev) => evRow("world ready", `${e(str(ev.files))} files`),
    tool_requested: (ev) => {
      const blocked = ev.verdict === "blocked";
      const gated = isGatedRequest(ev) ? ev : undefined;
      const decided = blocked
        ? `blocked by <b>${e(str(gated?.gate))}</b> (${e(str(gated?.code))})${gated?.message ? `: ${e(gated.message)}` : ""}`
        : e(ev.verdict);
      return (
        evRow("agent proposed", `<code>${e(ev.summary || ev.tool)}</code>`) +
        (gated?.layers.length ? evRow("gate layers", "") + layerList(gated.layers) : "") +
        asked.map(confirmationLine).join("") +
        evRow("decision", decided, blocked ? "blocked" : "ok")
      );
    },
    confirmation_required: confirmationLine,
    confirmation_answered: confirmationLine,
    tool_executed: (ev) =>
      evRow("world changed", `${e(ev.outcome)}: ${e(str(ev.changes))} path(s) differ from the start, ${ev.wrongful} wrongful`, ev.wrongful > 0 ? "harmed" : ""),
    hidden_test: (ev) => evRow("hidden test", `exit ${e(str(ev.exit))}${ev.timed_out ? " (timed out)" : ""}`) + `<pre>${e(ev.output)}</pre>`,
    agent_error: errorLine,
    harness_error: errorLine,
    phases: (ev) => evRow("phases", e(phasesLine(ev.ms))),
    world_built: plainLine,
    limit_exceeded: plainLine,
    integrity_violation: plainLine,
    escalated: plainLine,
    call_timed_out: plainLine,
    product_call: plainLine,
    product_exit: plainLine,
    trial_timeout: plainLine,
    diverged: plainLine,
    effects: plainLine,
    invariants: (ev) =>
      evRow(
        "what must survive",
        `${ev.entries} entr${ev.entries === 1 ? "y" : "ies"} checked${ev.broken.length ? `, broken: ${e(ev.broken.join(", "))}` : ", all kept"}${ev.probe ? ` (probe: ${e(ev.probe)})` : ""}`,
        ev.broken.length > 0 ? "harmed" : "ok",
      ),
  });
}

/** The log in order, with each call's confirmation events shown under the call they were about. */
function eventLog(events: readonly TrialEvent[]): string {
  const callIds = new Set(eventsOf(events, "tool_requested").map((ev) => ev.id));
  // an answer names only its confirmation id; the question names the call
  const callOfConfirmation = new Map(eventsOf(events, "confirmation_required").map((ev) => [ev.confirmation_id, ev.tool_call_id]));
  const byCall = new Map<string, ConfirmationEvent[]>();
  const out: string[] = [];
  for (const ev of events) {
    if (isConfirmationEvent(ev)) {
      const call = callOfConfirmation.get(ev.confirmation_id) ?? (isEvent(ev, "confirmation_required") ? ev.tool_call_id : "");
      if (callIds.has(call)) {
        byCall.set(call, [...(byCall.get(call) ?? []), ev]);
        continue;
      }
      out.push(eventLine(ev, []));
      continue;
    }
    const confirmations = isEvent(ev, "tool_requested") ? (byCall.get(ev.id) ?? []) : [];
    if (isEvent(ev, "tool_requested")) byCall.delete(ev.id);
    out.push(eventLine(ev, confirmations));
  }
  return out.join("\n");
}

function trialSection(r: TrialRecord, everyUser: boolean, events: readonly TrialEvent[] | undefined, approvals: readonly ApprovalRecord[]): string {
  const status = r.harmed ? `<span class="harmed">HARMED</span>` : r.outcome === "passed" ? `<span class="ok">passed</span>` : e(r.outcome);
  const blocked = r.blocked ? ` · <span class="blocked">${r.blocked} blocked</span>` : "";
  const user = everyUser ? `${e(ANY_USER)}${r.approver === NO_APPROVER ? "" : ` <span class="meta">(shown: ${e(r.approver)})</span>`}` : e(r.approver);
  const head = `${e(r.agent)} · ${e(r.gate)} / ${user} · attempt ${r.attempt} · ${status}${blocked}`;
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
  const attrs = filterAttrs(r.gate, everyUser ? NO_APPROVER : r.approver, r.harmed ? 1 : 0, r.false_blocks);
  return (
    `<details class="trial" id="trial-${e(r.trial_id)}" data-trial="${e(r.trial_id)}"${attrs}><summary>${head}</summary>` +
    `<div class="ev">${e(facts[0]!)}</div><div class="ev">${e(facts[1]!)}</div>` +
    `${r.error ? `<div class="ev harmed">${e(r.error)}</div>` : ""}${wrongful}\n${log}\n${asked}</details>`
  );
}

/** The three groups of a task's trials, in the order they are shown. */
const GROUPS = [
  { id: "harmful", head: "harmful agents", of: (r: TrialRecord) => r.agent_harmful },
  { id: "benign", head: "benign personas", of: (r: TrialRecord) => !r.agent_harmful && r.agent !== "reference" },
  { id: "reference", head: "the reference solution", of: (r: TrialRecord) => !r.agent_harmful && r.agent === "reference" },
] as const;

/** Evasion robustness by family per gate × approver, with the variants each let through. */
function evasionHtml(summary: SummaryLike, never: ReadonlySet<string>): string {
  const all = (summary as { evasion?: Robustness[] }).evasion;
  if (!all || all.length === 0) return "";
  const ev = viewRobustness(all, never);
  const families = [...new Set(ev.flatMap((r) => Object.keys(r.byFamily)))].sort();
  const pctOf = (s: { share: number | null; stopped: number; total: number } | undefined) =>
    s ? `${s.share === null ? "–" : `${Math.round(s.share * 100)}%`} (${s.stopped}/${s.total})` : "–";
  const who = (approver: string) => (approver === NO_APPROVER ? ANY_USER : approver);
  const td = (text: string) => {
    const key = sortKey(text);
    return `<td${key ? ` class="num" data-v="${key}"` : ""}>${e(text)}</td>`;
  };
  const head = `<thead><tr><th scope="col">gate</th><th scope="col">approver</th><th scope="col">overall</th>${families.map((f) => `<th scope="col">${e(f)}</th>`).join("")}</tr></thead>`;
  const body = ev
    .map(
      (r) =>
        `<tr${filterAttrs(r.gate, r.approver, r.letThrough.length, 0)}><td>${e(r.gate)}</td><td>${e(who(r.approver))}</td>${td(pctOf(r.overall))}${families.map((f) => td(pctOf(r.byFamily[f]))).join("")}</tr>`,
    )
    .join("\n");
  const through = ev
    .filter((r) => r.letThrough.length > 0)
    .map(
      (r) =>
        `<details class="evasion" data-gate="${e(r.gate)}"><summary>${e(r.gate)} / ${e(who(r.approver))}: ${r.letThrough.length} variant(s) let through</summary><ul>` +
        r.letThrough.map((l) => `<li><code>${e(l.task)}</code> <code>${e(l.agent)}</code> (${e(l.family)})</li>`).join("") +
        "</ul></details>",
    )
    .join("\n");
  return `<h2>Evasion robustness</h2>\n<div class="wide"><table class="sortable" id="table-evasion">${head}<tbody>${body}</tbody></table></div>\n${through}`;
}

/** The filter bar: gate, user and outcome menus over every table row and trial (shown by the script only). */
function filterBar(rows: readonly SummaryRowLike[]): string {
  const gates = [...new Set(rows.map((r) => r.gate))];
  const users = [...new Set(rows.map((r) => r.approver).filter((a) => a !== NO_APPROVER))].sort();
  const options = (values: readonly string[]) => values.map((v) => `<option value="${e(v)}">${e(v)}</option>`).join("");
  return (
    `<form id="filters" class="filters" hidden aria-label="filter the tables and trials">` +
    `<label>gate <select data-filter="gate"><option value="">all gates</option>${options(gates)}</select></label>` +
    `<label>user <select data-filter="approver"><option value="">all users</option>${options(users)}</select></label>` +
    `<label>outcome <select data-filter="outcome"><option value="">all</option><option value="harmed">harmed only</option>` +
    `<option value="false-blocks">false blocks only</option></select></label>` +
    `<output id="shown" aria-live="polite"></output></form>`
  );
}

export function renderHtml(input: HtmlInput): string {
  const { summary, records } = input;
  const never = neverAskingGates(summary.rows, records);
  const rows = viewRows(summary.rows, never);
  const meta = summary.meta;
  const metaBits: string[] = [];
  if (meta.git?.commit)
    metaBits.push(`commit <code>${e(meta.git.commit.slice(0, 12))}</code> on <code>${e(str(meta.git.branch))}</code>${meta.git.dirty ? " (dirty)" : ""}`);
  for (const k of ["gatebench_version", "tasks", "planned_trials", "fingerprint", "shard", "token_source", "price_reference"] as const) {
    if (meta[k] !== undefined) metaBits.push(`${e(k.replace(/_/g, " "))} <code>${e(str(meta[k]))}</code>`);
  }
  const who = headlineApprover(summary.rows);
  const approvalsBy = new Map<string, ApprovalRecord[]>();
  for (const a of input.approvals) approvalsBy.set(a.trial_id, [...(approvalsBy.get(a.trial_id) ?? []), a]);
  const byTask = new Map<string, { record: TrialRecord; anyUser: boolean }[]>();
  for (const t of viewTrials(records, never, who)) byTask.set(t.record.task, [...(byTask.get(t.record.task) ?? []), t]);
  const order = (a: TrialRecord, b: TrialRecord) =>
    a.agent.localeCompare(b.agent) || a.gate.localeCompare(b.gate) || a.approver.localeCompare(b.approver) || a.attempt - b.attempt;
  const tasks = [...byTask.keys()].sort().map((task) => {
    const ts = byTask.get(task)!;
    const harmed = ts.filter((t) => t.record.harmed).length;
    const harmNote = harmed ? `<span class="harmed">${harmed} harmed</span>` : "none harmed";
    const head = `${e(task)} <span class="meta">(${e(ts[0]!.record.category)}) · ${ts.length} trials · ${harmNote}<span class="shown-count"></span></span>`;
    const groups = GROUPS.map((g) => {
      const members = ts.filter((t) => g.of(t.record)).sort((a, b) => order(a.record, b.record));
      if (members.length === 0) return "";
      const trials = members.map((t) => trialSection(t.record, t.anyUser, input.events.get(t.record.trial_id), approvalsBy.get(t.record.trial_id) ?? []));
      return `<div class="group" data-group="${g.id}"><p class="group-head">${e(g.head)} (${members.length})</p>\n${trials.join("\n")}</div>`;
    });
    return `<details class="task" data-task="${e(task)}"><summary>${head}</summary>\n${groups.join("")}</details>`;
  });
  const userNote = who === null ? "no gate asks anyone" : `under <code>${e(who)}</code>, the ${e(approverRole({ approver: who }))} headline user`;
  const headline = headlineColumns(input.comparison).filter((c) => input.comparison || c.head !== "verdict vs base");
  const merged = rows.some(anyUser)
    ? `<p class="meta"><span class="any">${ANY_USER_MARK}</span> ${e(ANY_USER_LEGEND)}: one row, approver <code>${e(ANY_USER)}</code>, in every table and one dot in the charts (summary.json keeps a row per user).</p>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${pagePolicy()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gatebench run ${e(summary.run_id)}</title>
<style>${CSS}</style></head>
<body>
<h1>gatebench run <code>${e(summary.run_id)}</code></h1>
<p class="meta">${metaBits.join(" · ")}</p>
${filterBar(summary.rows)}
<h2>Harm prevented by gate, ${userNote}</h2>
<input type="checkbox" id="show-oracle" checked> <label for="show-oracle">show the answer-key user (<code>${e(ANSWER_KEY_USERS[0] ?? "")}</code>)</label>
<div class="chart-box">
${renderGateChart(summary.rows, never)}
${gateChartLegend(who)}
</div>
<h2>Harm prevented against user friction</h2>
${renderFrictionChart(summary.rows, never)}
<h2>Headline, ${userNote}</h2>
${htmlTable(headline, headlineRows(rows), "table-headline")}
${merged}
${unseenHtml(summary, headlineRows(rows))}
${evasionHtml(summary, never)}
<h2>All gates × approvers</h2>
${htmlTable(METRIC_COLUMNS, rows, "table-full", "full")}
<h2>Trials by task</h2>
<p class="meta">Open a task, then a trial: what the agent proposed, what each gate layer decided and why, what the user was asked and answered,
what changed in the world, and the hidden test's output. In each task, harmful agents come first, then the benign personas, then the reference.</p>
${tasks.join("\n")}
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}

/**
 * The report's charts as inline SVG, readable at the full default run's size (17 gate
 * configurations × 4 users). Pure: rows in, SVG text out; every name is escaped.
 *
 * 1. Harm prevented by gate (renderGateChart): one row per gate, sorted by harm prevented under
 *    the headline user. Per row: a dot at the headline user's harm prevented with its 95% interval
 *    as a whisker; the bounds as a grey bar from `rubber-stamp` (the gate alone) to `headless`
 *    (every question answered no); the answer-key user (`oracle-scope`) as a hollow diamond (a
 *    checkbox above the chart hides it, with CSS alone); a gate that never asks anyone is one
 *    grey dot, marked under its name. Gate names stand right-aligned in a column of their own,
 *    wrapped to its width, values in another on the right: no label can reach a dot or another
 *    label (a name wider than its column runs off the chart's left edge, away from the plot).
 * 2. Harm prevented against user friction (renderFrictionChart): one dot per gate at the headline
 *    user, friction = confirmations + retry turns per benign trial. Names stand in a column to the
 *    right of the plot, stacked in the order of their dots' heights with leader lines to the dots;
 *    the chart grows taller when they need the room, so names never overlap one another or a dot.
 */
import { scaleLinear } from "d3-scale";
import { escapeHtml } from "../../../text/escape/html.ts";
import { wrapToWidth } from "../../../text/width.ts";
import { ANSWER_KEY_USERS, APPROVE_ALL_USER, NO_UI_USER } from "../../../trial/approvers/registry.ts";
import { neverAskingGates } from "./never-asks.ts";
import { approverRole, friction, headlineApprover, NO_APPROVER, read, type ApproverRole, type Interval, type SummaryRowLike } from "../statistics/row.ts";

export const ROLE_COLOURS: Record<ApproverRole, string> = {
  none: "#555555",
  bound: "#c0392b",
  realistic: "#1f6fb2",
  "answer-key": "#2e8b57",
};

/** Chart text is monospace: a character is at most this wide (px) at 12 px, for wrapping names. */
const CHAR_PX = 7.6;
const LINE_PX = 15;

const e = escapeHtml;
const pctText = (v: number | null) => (v === null ? "–" : `${Math.round(v * 100)}%`);
const ciText = (ci: Interval | null) => (ci ? ` [${Math.round(ci[0] * 100)}–${Math.round(ci[1] * 100)}]` : "");
const f1 = (n: number) => n.toFixed(1);

/** What the charts show of one gate. */
export interface GateEntry {
  gate: string;
  /** Never asks anyone: one row, the same under every user. */
  anyUser: boolean;
  /** Harm prevented under the headline user, with its interval (null: no harm to prevent, or not run). */
  headline: number | null;
  ci: Interval | null;
  headless: number | null;
  rubberStamp: number | null;
  oracle: number | null;
  /** Confirmations + retry turns per benign trial under the headline user. */
  friction: number | null;
  perBenign: boolean;
  role: ApproverRole;
}

/** One entry per gate, sorted by harm prevented under the headline user (highest first, then by name). */
export function gateEntries(rows: readonly SummaryRowLike[], never: ReadonlySet<string> = neverAskingGates(rows)): GateEntry[] {
  const who = headlineApprover(rows);
  const gates = [...new Set(rows.map((r) => r.gate))];
  const entries = gates.map((gate): GateEntry => {
    const own = rows.filter((r) => r.gate === gate);
    const only = own.find((r) => r.approver === NO_APPROVER);
    const anyUser = only !== undefined || never.has(gate);
    const under = (approver: string | null) => (anyUser ? (only ?? own.find((r) => r.approver === who) ?? own[0]) : own.find((r) => r.approver === approver));
    const head = under(who);
    const hp = (approver: string) => under(approver)?.harm_prevented ?? null;
    const f = head ? friction(head) : { value: null, perBenign: true };
    return {
      gate,
      anyUser,
      headline: head?.harm_prevented ?? null,
      ci: head ? read(head, "harm_prevented_ci") : null,
      headless: hp(NO_UI_USER),
      rubberStamp: hp(APPROVE_ALL_USER),
      oracle: ANSWER_KEY_USERS.map(hp).find((v) => v !== null) ?? null,
      friction: f.value,
      perBenign: f.perBenign,
      role: anyUser ? "none" : head ? approverRole(head) : "realistic",
    };
  });
  return entries.sort((a, b) => (b.headline ?? -Infinity) - (a.headline ?? -Infinity) || a.gate.localeCompare(b.gate));
}

/** A name in lines of at most `px` pixels of chart text. */
function nameLines(name: string, px: number): string[] {
  return wrapToWidth(name, Math.max(8, Math.floor(px / CHAR_PX)));
}

const tspans = (lines: readonly string[], x: number, cls = "") =>
  lines.map((l, i) => `<tspan x="${f1(x)}"${i ? ` dy="${LINE_PX}"` : ""}${cls ? ` class="${cls}"` : ""}>${e(l)}</tspan>`).join("");

function tooltip(g: GateEntry, who: string | null): string {
  const parts = [`${g.gate}${g.anyUser ? " (never asks anyone: the same under every user)" : ""}`];
  parts.push(`${who ?? "harm prevented"}: ${g.headline === null ? "no harm to prevent" : `${pctText(g.headline)}${ciText(g.ci)}`}`);
  if (!g.anyUser) parts.push(`headless ${pctText(g.headless)}`, `rubber-stamp ${pctText(g.rubberStamp)}`, `oracle-scope ${pctText(g.oracle)}`);
  return parts.join("; ");
}

/** Harm prevented by gate: a dot chart, one row per gate (see the header). */
export function renderGateChart(rows: readonly SummaryRowLike[], never?: ReadonlySet<string>, width = 920): string {
  const entries = gateEntries(rows, never);
  const who = headlineApprover(rows);
  const m = { top: 40, label: 250, gap: 22, value: 120, right: 12 };
  const plot = { x0: m.label + m.gap, x1: width - m.right - m.value - m.gap };
  const values = entries.flatMap((g) => [g.headline, g.headless, g.rubberStamp, g.oracle, g.ci?.[0] ?? null]).filter((v): v is number => v !== null);
  const x = scaleLinear()
    .domain([Math.min(0, ...values), 1])
    .nice()
    .range([plot.x0, plot.x1]);
  const layout = entries.map((g) => {
    const lines = nameLines(g.gate, m.label);
    const n = lines.length + (g.anyUser ? 1 : 0);
    return { g, lines, h: Math.max(28, n * LINE_PX + 12) };
  });
  const height = m.top + layout.reduce((s, l) => s + l.h, 0) + 8;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" id="chart" class="chart gate-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" ` +
      `aria-label="harm prevented by gate under ${e(who ?? "the only user")}, with its 95% interval, the bounds and the answer-key user">`,
  ];
  for (const t of x.ticks(5)) {
    const px = f1(x(t));
    parts.push(`<line class="grid" x1="${px}" x2="${px}" y1="${m.top - 6}" y2="${height - 8}"/>`);
    parts.push(`<text class="tick" x="${px}" y="${m.top - 12}" text-anchor="middle">${Math.round(t * 100)}%</text>`);
  }
  let y = m.top;
  for (const [i, { g, lines, h }] of layout.entries()) {
    const mid = y + h / 2;
    const row: string[] = [`<g class="gate-row" data-gate="${e(g.gate)}" data-any-user="${g.anyUser ? 1 : 0}"><title>${e(tooltip(g, who))}</title>`];
    if (i % 2 === 0) row.push(`<rect class="band" x="0" y="${f1(y)}" width="${width}" height="${f1(h)}"/>`);
    const n = lines.length + (g.anyUser ? 1 : 0);
    const first = mid - ((n - 1) * LINE_PX) / 2 + 4;
    row.push(
      `<text class="name" x="${m.label}" y="${f1(first)}" text-anchor="end">${tspans(lines, m.label)}${
        g.anyUser ? `<tspan x="${m.label}" dy="${LINE_PX}" class="sub">any user (never asks)</tspan>` : ""
      }</text>`,
    );
    if (!g.anyUser && g.headless !== null && g.rubberStamp !== null) {
      const [lo, hi] = [Math.min(g.headless, g.rubberStamp), Math.max(g.headless, g.rubberStamp)];
      row.push(`<rect class="bounds" x="${f1(x(lo) - 3)}" y="${f1(mid - 5)}" width="${f1(x(hi) - x(lo) + 6)}" height="10" rx="5"/>`);
    }
    if (g.ci) {
      const [a, b] = [x(g.ci[0]), x(g.ci[1])];
      row.push(`<path class="whisker" d="M${f1(a)} ${f1(mid)}H${f1(b)}M${f1(a)} ${f1(mid - 5)}V${f1(mid + 5)}M${f1(b)} ${f1(mid - 5)}V${f1(mid + 5)}"/>`);
    }
    if (!g.anyUser && g.oracle !== null) {
      const ox = x(g.oracle);
      row.push(`<path class="pt oracle" d="M${f1(ox)} ${f1(mid - 6)}L${f1(ox + 6)} ${f1(mid)}L${f1(ox)} ${f1(mid + 6)}L${f1(ox - 6)} ${f1(mid)}Z"/>`);
    }
    if (g.headline !== null) {
      row.push(`<circle class="pt headline" cx="${f1(x(g.headline))}" cy="${f1(mid)}" r="5.5" fill="${ROLE_COLOURS[g.role]}"/>`);
    }
    const value = g.headline === null ? "no harm to prevent" : `${pctText(g.headline)}${ciText(g.ci)}`;
    row.push(`<text class="value" x="${f1(plot.x1 + m.gap)}" y="${f1(mid + 4)}">${e(value)}</text>`, "</g>");
    parts.push(row.join(""));
    y += h;
  }
  parts.push("</svg>");
  return parts.join("\n");
}

/** The legend of the gate chart, in HTML (symbols drawn, words as text), and the answer-key toggle. */
export function gateChartLegend(who: string | null): string {
  const sym = (body: string) => `<svg class="sym" viewBox="0 0 28 14" width="28" height="14" aria-hidden="true">${body}</svg>`;
  return (
    `<ul class="legend">` +
    `<li>${sym(`<path class="whisker" d="M3 7H25M3 2V12M25 2V12"/><circle cx="14" cy="7" r="5" fill="${ROLE_COLOURS.realistic}"/>`)} harm prevented under the headline user${who ? ` <code>${e(who)}</code>` : ""}, with its 95% interval</li>` +
    `<li>${sym(`<rect class="bounds" x="1" y="2" width="26" height="10" rx="5"/>`)} bounds: from <code>${e(APPROVE_ALL_USER)}</code> (the gate alone, every question approved) to <code>${e(NO_UI_USER)}</code> (every question answered no)</li>` +
    `<li class="oracle-key">${sym(`<path class="oracle" d="M14 1L20 7L14 13L8 7Z"/>`)} answer key (<code>${e(ANSWER_KEY_USERS[0] ?? "")}</code>): an upper bound no real user reaches</li>` +
    `<li>${sym(`<circle cx="14" cy="7" r="5" fill="${ROLE_COLOURS.none}"/>`)} a gate that never asks anyone: one dot, the same under every user</li>` +
    `</ul>`
  );
}

/** Harm prevented against user friction: one dot per gate, names stacked in a column at the right. */
export function renderFrictionChart(rows: readonly SummaryRowLike[], never?: ReadonlySet<string>, width = 920): string {
  const entries = gateEntries(rows, never);
  const perBenign = entries.every((g) => g.perBenign);
  const who = headlineApprover(rows);
  const m = { top: 20, bottom: 64, left: 64, labels: 280, gap: 36 };
  const plotX1 = width - m.labels - m.gap;
  const labels = entries.map((g) => {
    const lines = nameLines(g.gate + (g.anyUser ? " (never asks)" : g.headline === null ? " (no harm to prevent)" : ""), m.labels - 8);
    return { g, lines, h: lines.length * LINE_PX + 4 };
  });
  const stacked = labels.reduce((s, l) => s + l.h, 0);
  const plotHeight = Math.max(360, stacked);
  const height = m.top + plotHeight + m.bottom;
  const maxX = Math.max(0.5, ...entries.map((g) => g.friction ?? 0)) * 1.08;
  const minY = Math.min(0, ...entries.map((g) => g.headline ?? 0));
  const x = scaleLinear().domain([0, maxX]).nice().range([m.left, plotX1]);
  const y = scaleLinear()
    .domain([minY, 1])
    .nice()
    .range([m.top + plotHeight, m.top]);
  const floor = m.top + plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" id="chart-friction" class="chart friction-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" ` +
      `aria-label="harm prevented against user friction, one dot per gate under ${e(who ?? "the only user")}">`,
  ];
  for (const t of x.ticks(6)) {
    const px = f1(x(t));
    parts.push(`<line class="grid" x1="${px}" x2="${px}" y1="${m.top}" y2="${floor}"/>`);
    parts.push(`<text class="tick" x="${px}" y="${floor + 18}" text-anchor="middle">${e(String(t))}</text>`);
  }
  for (const t of y.ticks(6)) {
    const py = f1(y(t));
    parts.push(`<line class="grid" x1="${m.left}" x2="${plotX1}" y1="${py}" y2="${py}"/>`);
    parts.push(`<text class="tick" x="${m.left - 8}" y="${py}" dy="4" text-anchor="end">${Math.round(t * 100)}%</text>`);
  }
  parts.push(`<line class="axis" x1="${m.left}" x2="${plotX1}" y1="${floor}" y2="${floor}"/>`);
  parts.push(`<line class="axis" x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${floor}"/>`);
  const xTitle = `user friction: confirmations + retry turns per ${perBenign ? "benign" : "scored"} trial`;
  parts.push(`<text class="axis-title" x="${f1((m.left + plotX1) / 2)}" y="${floor + 44}" text-anchor="middle">${e(xTitle)}</text>`);
  parts.push(`<text class="axis-title" transform="translate(16 ${f1(m.top + plotHeight / 2)}) rotate(-90)" text-anchor="middle">harm prevented</text>`);

  // Names: wanted at their dot's height, stacked top to bottom without overlap, kept inside the plot's height.
  const dots = labels.map((l) => ({ ...l, cx: x(l.g.friction ?? 0), cy: l.g.headline === null ? floor : y(l.g.headline) }));
  const order = [...dots.keys()].sort((a, b) => dots[a]!.cy - dots[b]!.cy || dots[a]!.g.gate.localeCompare(dots[b]!.g.gate));
  const top = new Map<number, number>();
  let next = m.top;
  for (const i of order) {
    const t = Math.max(dots[i]!.cy - dots[i]!.h / 2, next);
    top.set(i, t);
    next = t + dots[i]!.h;
  }
  let limit = floor;
  for (const i of [...order].reverse()) {
    const t = Math.min(top.get(i)!, limit - dots[i]!.h);
    top.set(i, t);
    limit = t;
  }
  const labelX = plotX1 + m.gap;
  for (const [i, d] of dots.entries()) {
    const t = top.get(i)!;
    const colour = ROLE_COLOURS[d.g.role];
    const title = `${d.g.gate}: harm prevented ${d.g.headline === null ? "n/a" : pctText(d.g.headline)}, friction ${(d.g.friction ?? 0).toFixed(2)}`;
    parts.push(
      `<g class="point" data-gate="${e(d.g.gate)}"><title>${e(title)}</title>` +
        `<line class="leader" x1="${f1(d.cx + 6)}" y1="${f1(d.cy)}" x2="${f1(labelX - 4)}" y2="${f1(t + d.h / 2)}"/>` +
        `<circle class="pt" cx="${f1(d.cx)}" cy="${f1(d.cy)}" r="5" fill="${d.g.headline === null ? "none" : colour}" stroke="${colour}" stroke-width="2"/>` +
        `<text class="name" x="${f1(labelX)}" y="${f1(t + LINE_PX - 3)}" fill="${colour}">${tspans(d.lines, labelX)}</text></g>`,
    );
  }
  parts.push("</svg>");
  return parts.join("\n");
}

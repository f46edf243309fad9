/**
 * The report's chart as inline SVG: harm prevented (y) against user friction (x: confirmations
 * plus retry turns per benign trial), one labelled point per gate × approver, coloured by the
 * approver's role. Pure: rows in, SVG text out.
 */
import { scaleLinear } from "d3-scale";
import { approverRole, friction, type ApproverRole, type SummaryRowLike } from "./row.ts";
import { escapeHtml } from "../../text/escape/html.ts";

export const ROLE_COLOURS: Record<ApproverRole, string> = {
  none: "#555555",
  bound: "#c0392b",
  realistic: "#1f6fb2",
  "answer-key": "#2e8b57",
};

const ROLE_LABELS: Record<ApproverRole, string> = {
  none: "no approver (gate never asks)",
  bound: "bound (headless, rubber-stamp)",
  realistic: "realistic user",
  "answer-key": "answer key (oracle)",
};

export interface ChartPoint {
  gate: string;
  approver: string;
  role: ApproverRole;
  x: number;
  /** null: `none` harmed nothing on these pairs, so there was no harm to prevent. */
  y: number | null;
}

export function chartPoints(rows: readonly SummaryRowLike[]): { points: ChartPoint[]; perBenign: boolean } {
  let perBenign = true;
  const points = rows.map((r) => {
    const f = friction(r);
    if (!f.perBenign) perBenign = false;
    return { gate: r.gate, approver: r.approver, role: approverRole(r), x: f.value ?? 0, y: r.harm_prevented ?? null };
  });
  return { points, perBenign };
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

export function renderChart(rows: readonly SummaryRowLike[], size = { width: 920, height: 560 }): string {
  const { points, perBenign } = chartPoints(rows);
  const m = { top: 24, right: 190, bottom: 80, left: 64 };
  const maxX = Math.max(0.5, ...points.map((p) => p.x)) * 1.08;
  const minY = Math.min(0, ...points.map((p) => p.y ?? 0));
  const x = scaleLinear()
    .domain([0, maxX])
    .nice()
    .range([m.left, size.width - m.right]);
  const y = scaleLinear()
    .domain([minY, 1])
    .nice()
    .range([size.height - m.bottom, m.top]);
  const parts: string[] = [];
  const { width: W, height: H } = size;
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" id="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" ` +
      `aria-label="harm prevented against user friction, one point per gate and approver">`,
  );
  for (const t of x.ticks(6)) {
    const px = x(t).toFixed(1);
    parts.push(`<line class="grid" x1="${px}" x2="${px}" y1="${m.top}" y2="${H - m.bottom}"/>`);
    parts.push(`<text class="tick" x="${px}" y="${H - m.bottom + 18}" text-anchor="middle">${escapeHtml(String(t))}</text>`);
  }
  for (const t of y.ticks(6)) {
    const py = y(t).toFixed(1);
    parts.push(`<line class="grid" x1="${m.left}" x2="${W - m.right}" y1="${py}" y2="${py}"/>`);
    parts.push(`<text class="tick" x="${m.left - 8}" y="${py}" dy="4" text-anchor="end">${Math.round(t * 100)}%</text>`);
  }
  parts.push(`<line class="axis" x1="${m.left}" x2="${W - m.right}" y1="${H - m.bottom}" y2="${H - m.bottom}"/>`);
  parts.push(`<line class="axis" x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${H - m.bottom}"/>`);
  const xLabel = `user friction: confirmations + retry turns per ${perBenign ? "benign" : "scored"} trial`;
  parts.push(`<text class="label" x="${(m.left + W - m.right) / 2}" y="${H - m.bottom + 40}" text-anchor="middle">${escapeHtml(xLabel)}</text>`);
  parts.push(`<text class="label" transform="translate(16 ${(m.top + H - m.bottom) / 2}) rotate(-90)" text-anchor="middle">harm prevented</text>`);

  const placed: Box[] = [];
  const sorted = [...points].sort((a, b) => (b.y ?? -1) - (a.y ?? -1) || a.x - b.x || a.gate.localeCompare(b.gate));
  for (const p of sorted) {
    const cx = x(p.x);
    const cy = p.y === null ? y(minY) : y(p.y);
    const label = `${p.gate} / ${p.approver}${p.y === null ? " (no harm to prevent)" : ""}`;
    const w = label.length * 6.2;
    // near the floor, labels stack upwards so they stay clear of the axis ticks
    const step = cy > H - m.bottom - 24 ? -12 : 12;
    let box: Box = { x: cx + 7, y: step < 0 ? cy - 20 : cy - 9, w, h: 12 };
    for (let i = 0; i < 40 && placed.some((b) => overlaps(b, box)); i++) box = { ...box, y: box.y + step };
    placed.push(box);
    const colour = ROLE_COLOURS[p.role];
    const fill = p.y === null ? "none" : colour;
    const title = `${p.gate} / ${p.approver}: harm prevented ${p.y === null ? "n/a" : `${Math.round(p.y * 100)}%`}, friction ${p.x.toFixed(2)}`;
    parts.push(
      `<g class="point" data-gate="${escapeHtml(p.gate)}" data-approver="${escapeHtml(p.approver)}">` +
        `<title>${escapeHtml(title)}</title>` +
        `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="5" fill="${fill}" stroke="${colour}" stroke-width="2"/>` +
        (box.y !== cy - 9 ? `<line class="leader" x1="${cx.toFixed(1)}" y1="${cy.toFixed(1)}" x2="${box.x.toFixed(1)}" y2="${(box.y + 8).toFixed(1)}"/>` : "") +
        `<text class="pt-label" x="${box.x.toFixed(1)}" y="${(box.y + 10).toFixed(1)}" fill="${colour}">${escapeHtml(label)}</text></g>`,
    );
  }
  const roles = [...new Set(points.map((p) => p.role))];
  roles.forEach((role, i) => {
    const ly = H - 14;
    const lx = m.left + i * 210;
    parts.push(`<circle cx="${lx}" cy="${ly}" r="5" fill="${ROLE_COLOURS[role]}"/>`);
    parts.push(`<text class="legend" x="${lx + 10}" y="${ly + 4}">${escapeHtml(ROLE_LABELS[role])}</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}

/**
 * HTML escaping for report.html (and the HTML parts of summary.md): every string from a task, a
 * model or a gate is hostile. The five characters HTML gives a meaning become entities, and the
 * control and format characters are written out visibly (controls.ts), so a bidi override or an
 * escape sequence in a trial's output shows as `\u202e` / `\u001b` instead of acting on the page.
 */
import { escapeControls } from "./controls.ts";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(s: string): string {
  return escapeControls(s).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

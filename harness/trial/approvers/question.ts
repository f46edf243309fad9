/**
 * What a permission UI would put on screen for one confirmation: the gate's title, the command
 * (or a one-line summary of a file tool's call), the first few named targets with a count of
 * the rest, and the gate's explanation — all within a fixed character budget, the way a dialog
 * or a terminal prompt has room for so much and no more. Realistic users (careful, fatigued,
 * human) decide from this and from the task's instruction only. Pure.
 */
import type { Risk } from "../../../gates/types.ts";
import type { ApprovalRequest } from "./types.ts";

/** Characters of title + command + targets + detail a question may show. */
export const QUESTION_BUDGET = 400;
/** Targets listed by name; the rest are only counted. */
export const SHOWN_TARGETS = 5;
const TITLE_MAX = 100;
const COMMAND_MAX = 200;

export interface UiQuestion {
  /** Opaque ids a UI uses to route the answer; they say nothing about the call. */
  readonly confirmationId: string;
  readonly toolCallId: string;
  readonly tool: string;
  readonly risk: Risk;
  readonly title: string;
  /** bash: the command; file tools: `write /path (120 bytes, whole file)` and the like. */
  readonly command: string;
  /** The first targets the gate named, in its order. */
  readonly targets: readonly string[];
  /** Named targets that did not fit (beyond SHOWN_TARGETS or the budget). */
  readonly moreTargets: number;
  /** The gate's explanation, cut to what is left of the budget. */
  readonly detail: string;
  /** The title or the command was cut to fit (a cut explanation does not count). */
  readonly truncated: boolean;
}

function cut(text: string, max: number): { text: string; cut: boolean } {
  if (max <= 0) return { text: "", cut: text.length > 0 };
  if (text.length <= max) return { text, cut: false };
  return { text: `${text.slice(0, Math.max(0, max - 1))}…`, cut: true };
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** One line saying what the call does, as a UI would label it. */
export function callSummary(tool: string, args: Readonly<Record<string, unknown>>): string {
  const path = str(args.path);
  switch (tool) {
    case "bash":
      return str(args.command) ?? "bash (no command)";
    case "write": {
      const content = str(args.content);
      return `write ${path ?? "?"} (${content === undefined ? "?" : Buffer.byteLength(content)} bytes, whole file)`;
    }
    case "edit": {
      const edits = Array.isArray(args.edits) ? args.edits.length : 0;
      return `edit ${path ?? "?"} (${edits} replacement${edits === 1 ? "" : "s"})`;
    }
    case "delete":
      return `delete ${path ?? "?"}${args.recursive === true ? " (recursive)" : ""}`;
    default:
      return path !== undefined ? `${tool} ${path}` : tool;
  }
}

/** The question a UI shows for this request. Never longer than `budget` in rendered fields. */
export function buildUiQuestion(
  request: Pick<ApprovalRequest, "confirmationId" | "toolCallId" | "tool" | "args" | "title" | "description" | "resources" | "risk">,
  budget = QUESTION_BUDGET,
): UiQuestion {
  let left = budget;
  const title = cut(request.title.replace(/\s+/g, " ").trim(), Math.min(TITLE_MAX, left));
  left -= title.text.length;
  const command = cut(callSummary(request.tool, request.args), Math.min(COMMAND_MAX, left));
  left -= command.text.length;
  const targets: string[] = [];
  for (const r of request.resources) {
    if (targets.length >= SHOWN_TARGETS || r.length > left) break;
    targets.push(r);
    left -= r.length;
  }
  const detail = cut(request.description.trim(), left);
  return {
    confirmationId: request.confirmationId,
    toolCallId: request.toolCallId,
    tool: request.tool,
    risk: request.risk,
    title: title.text,
    command: command.text,
    targets,
    moreTargets: request.resources.length - targets.length,
    detail: detail.text,
    truncated: title.cut || command.cut,
  };
}

/** Characters of the budgeted fields (what QUESTION_BUDGET bounds). */
export function questionLength(q: UiQuestion): number {
  return q.title.length + q.command.length + q.targets.reduce((n, t) => n + t.length, 0) + q.detail.length;
}

/** The question as text for a terminal. */
export function renderQuestion(q: UiQuestion): string {
  const lines = [`${q.title} (risk: ${q.risk})`, `  tool: ${q.tool}`, `  $ ${q.command}`];
  if (q.targets.length === 0) lines.push("  targets: (none named)");
  else lines.push("  targets:", ...q.targets.map((t) => `    - ${t}`));
  if (q.moreTargets > 0) lines.push(`    … and ${q.moreTargets} more`);
  if (q.detail) lines.push(...q.detail.split("\n").map((l) => `  ${l}`));
  return `${lines.join("\n")}\n`;
}

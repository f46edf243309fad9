/**
 * Progress of a run: one live line on a terminal (log-update), plain lines every few seconds
 * otherwise. formatProgress is pure and does the arithmetic: trials done of total, ETA from the
 * pace so far, harmed trials, harness errors and tokens so far. Scripted agents cost nothing to
 * run (their tokens are an estimate of what a model would read and write), so the line shows
 * tokens; dollars only for real models (agents without a harm label) priced in prices.yaml, and
 * how many of their trials had no price. Every line fits TERMINAL_WIDTH columns: a line that
 * would not is split at its " · " parts, and the live line's last trial is cut. Every line is redacted (a harness
 * error may quote a setup's stderr) and its control characters escaped (harness/text/escape/controls.ts):
 * the stream is the terminal, and log-update's own cursor movements are the only ones it gets.
 */
import { createLogUpdate } from "log-update";
import { escapeControls } from "../../../text/escape/controls.ts";
import { redact } from "../../../text/redact/redact.ts";
import { isErrored, type TrialRecord } from "../../../model/record/record.ts";
import { truncateToWidth, wrapToWidth } from "../../../text/width.ts";
import { packLine, TERMINAL_WIDTH } from "./render.ts";

export interface ProgressState {
  done: number;
  total: number;
  harmed: number;
  errors: number;
  /** Input + output tokens of every trial so far (scripted agents: estimated). */
  tokens?: number;
  /** Dollars of the real-model trials whose model has a price (prices.yaml). */
  costUsd: number;
  /** Real-model trials with a price so far (the cost is shown only when there are some). */
  priced?: number;
  /** Real-model trials whose model has no price (their cost is unknown, not 0). */
  unpriced?: number;
  elapsedMs: number;
  /** Trials already finished when this process started (resume): they do not set the pace. */
  resumed?: number;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** Remaining time at the pace of the trials this process ran; null before the first one. */
export function eta(p: ProgressState): number | null {
  const ran = p.done - (p.resumed ?? 0);
  if (ran <= 0 || p.elapsedMs <= 0) return null;
  return ((p.total - p.done) * p.elapsedMs) / ran;
}

/** 1,234 / 12.3k / 1.2M: tokens at a glance. */
export function compactCount(v: number): string {
  if (v < 10_000) return v.toLocaleString("en-US");
  if (v < 1_000_000) return `${(v / 1000).toFixed(v < 100_000 ? 1 : 0)}k`;
  return `${(v / 1_000_000).toFixed(v < 100_000_000 ? 1 : 0)}M`;
}

/** The progress parts: trials, ETA, harmed, errors, tokens, and dollars only where a real model has a price. */
export function progressParts(p: ProgressState): string[] {
  const share = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 100;
  const left = eta(p);
  const when = p.done >= p.total ? `done in ${formatDuration(p.elapsedMs)}` : `ETA ${left === null ? "–" : formatDuration(left)}`;
  const parts = [`${p.done}/${p.total} trials (${share}%)`, when, `harmed ${p.harmed}`, `errors ${p.errors}`, `tokens ${compactCount(p.tokens ?? 0)}`];
  if (p.priced) parts.push(`cost $${p.costUsd.toFixed(4)}`);
  if (p.unpriced) parts.push(`${p.unpriced} trial${p.unpriced === 1 ? "" : "s"} unpriced`);
  return parts;
}

/** The progress line, split into lines of at most TERMINAL_WIDTH columns where it must. */
export function formatProgress(p: ProgressState, max = TERMINAL_WIDTH): string {
  return packLine(progressParts(p), max).join("\n");
}

export interface ProgressReporter {
  trial(record: TrialRecord, done: number, total: number): void;
  finish(): void;
}

export interface ProgressOptions {
  stream: NodeJS.WriteStream | NodeJS.WritableStream;
  tty: boolean;
  /** Plain mode: at most one line per this many ms (plus the last). */
  intervalMs?: number;
  /** Trials finished before this process started. */
  resumed?: number;
  now?: () => number;
}

/** What the terminal may be given of a line: redacted, control characters escaped. */
const shown = (line: string): string => escapeControls(redact(line));

export function createProgress(opts: ProgressOptions): ProgressReporter {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const state: ProgressState = { done: opts.resumed ?? 0, total: 0, harmed: 0, errors: 0, costUsd: 0, elapsedMs: 0, resumed: opts.resumed ?? 0 };
  const live = opts.tty ? createLogUpdate(opts.stream as NodeJS.WriteStream) : undefined;
  const interval = opts.intervalMs ?? 5000;
  let lastPrinted = -Infinity;
  return {
    trial(r, done, total) {
      state.done = done;
      state.total = total;
      if (r.harmed) state.harmed++;
      if (isErrored(r)) state.errors++;
      state.tokens = (state.tokens ?? 0) + r.tokens_in + r.tokens_out;
      // A scripted agent's dollars are its estimated tokens at a reference model's price: not shown here.
      if (r.agent_harmful === null) {
        if (r.cost_usd === null) state.unpriced = (state.unpriced ?? 0) + 1;
        else {
          state.priced = (state.priced ?? 0) + 1;
          state.costUsd += r.cost_usd;
        }
      }
      state.elapsedMs = now() - started;
      const line = formatProgress(state);
      if (live) {
        const last = `${r.task} ${r.agent} ${r.gate}/${r.approver}: ${r.outcome}${r.harmed ? " HARMED" : ""}`;
        live(`${shown(line)}\n${truncateToWidth(shown(`  last: ${last}`), TERMINAL_WIDTH)}`);
      } else if (isErrored(r)) {
        const what = `${r.outcome === "measurement_failed" ? "measurement failed" : "harness error"}: ${r.task} ${r.agent} ${r.gate}/${r.approver}: ${(r.error ?? "").slice(0, 200)}`;
        const [first = "", ...rest] = wrapToWidth(shown(what), TERMINAL_WIDTH);
        opts.stream.write(`${[first, ...rest.flatMap((l) => wrapToWidth(l, TERMINAL_WIDTH - 2).map((x) => `  ${x}`))].join("\n")}\n`);
      }
      if (!live && (done >= total || state.elapsedMs - lastPrinted >= interval)) {
        lastPrinted = state.elapsedMs;
        opts.stream.write(shown(`${line}\n`));
      }
    },
    finish() {
      live?.done();
    },
  };
}

/**
 * Progress of a run: one live line on a terminal (log-update), plain lines every few seconds
 * otherwise. formatProgress is pure and does the arithmetic: trials done of total, ETA from the
 * pace so far, harmed trials, harness errors and cost so far. Every line is redacted (a harness
 * error may quote a setup's stderr) and its control characters escaped (harness/text/escape/controls.ts):
 * the stream is the terminal, and log-update's own cursor movements are the only ones it gets.
 */
import { createLogUpdate } from "log-update";
import { escapeControls } from "../../text/escape/controls.ts";
import { redact } from "../../text/redact/redact.ts";
import { isErrored, type TrialRecord } from "../../model/record/record.ts";

export interface ProgressState {
  done: number;
  total: number;
  harmed: number;
  errors: number;
  costUsd: number;
  /** Trials whose model has no price (their cost is unknown, not 0). */
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

export function formatProgress(p: ProgressState): string {
  const share = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 100;
  const left = eta(p);
  const when = p.done >= p.total ? `done in ${formatDuration(p.elapsedMs)}` : `ETA ${left === null ? "–" : formatDuration(left)}`;
  return `${p.done}/${p.total} trials (${share}%) · ${when} · harmed ${p.harmed} · errors ${p.errors} · cost $${p.costUsd.toFixed(4)}${p.unpriced ? ` + ${p.unpriced} trial${p.unpriced === 1 ? "" : "s"} unpriced` : ""}`;
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
      state.costUsd += r.cost_usd ?? 0;
      if (r.cost_usd === null) state.unpriced = (state.unpriced ?? 0) + 1;
      state.elapsedMs = now() - started;
      const line = formatProgress(state);
      if (live) {
        const last = `${r.task} ${r.agent} ${r.gate}/${r.approver}: ${r.outcome}${r.harmed ? " HARMED" : ""}`;
        live(shown(`${line}\n  last: ${last}`));
      } else if (isErrored(r)) {
        opts.stream.write(
          shown(
            `${r.outcome === "measurement_failed" ? "measurement failed" : "harness error"}: ${r.task} ${r.agent} ${r.gate}/${r.approver}: ${(r.error ?? "").slice(0, 200)}\n`,
          ),
        );
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

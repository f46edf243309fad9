/**
 * A run's output folder: results.jsonl (one line per finished trial, appended whole, so a
 * killed run can resume), approvals.jsonl, per-trial event logs, summary.json, summary.md and
 * report.html. One writer per folder: opening it takes `<dir>/.lock` for this process (a live
 * other owner is bad input, exit 2; the lock of a dead one is taken over).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import type { ApprovalRecord } from "../../trial/approvers/broker.ts";
import { InputError } from "../../../kernel/errors.ts";
import { acquireDirLock } from "../../sandbox/process/ownership.ts";
import { jsonText, redact, redactMarkup } from "../../text/redact/redact.ts";
import type { TrialRecord } from "../../model/record/record.ts";
import { EventLogError, parseEvents, type TrialEvent } from "../../model/record/events.ts";

export class RunOutput {
  constructor(readonly dir: string) {
    mkdirSync(join(dir, "trials"), { recursive: true });
    acquireDirLock(dir);
  }

  get approvalsFile(): string {
    return join(this.dir, "approvals.jsonl");
  }

  get resultsFile(): string {
    return join(this.dir, "results.jsonl");
  }

  /** Trials already finished in this folder (for --resume); a torn line is ignored, a repeated trial counted once. */
  readResults(): TrialRecord[] {
    const seen = new Set<string>();
    return readJsonLines<TrialRecord>(this.resultsFile).filter((r) => {
      if (typeof r?.trial_id !== "string" || seen.has(r.trial_id)) return false;
      seen.add(r.trial_id);
      return true;
    });
  }

  /** The matrix this folder's run planned (runner/matrix.ts matrixId), or undefined before a run wrote it. */
  readMatrix(): string | undefined {
    const file = join(this.dir, "matrix.json");
    if (!existsSync(file)) return undefined;
    try {
      const m = JSON.parse(readFileSync(file, "utf8")) as { matrix?: unknown };
      return typeof m.matrix === "string" ? m.matrix : undefined;
    } catch {
      return undefined;
    }
  }

  writeMatrix(matrix: string): void {
    this.writeAtomic(join(this.dir, "matrix.json"), `${JSON.stringify({ matrix })}\n`);
  }

  /**
   * Before a resume appends again: every jsonl file of the folder keeps only whole lines;
   * results.jsonl keeps one line per trial, without the trials in `drop` (to be run again), and
   * approvals.jsonl only the records of trials in results.jsonl (the others belong to trials
   * that did not finish and will run again), once each.
   */
  repairResults(drop: ReadonlySet<string> = new Set()): void {
    const results = this.readResults().filter((r) => !drop.has(r.trial_id));
    if (existsSync(this.resultsFile)) this.writeAtomic(this.resultsFile, toJsonLines(results));
    if (!existsSync(this.approvalsFile)) return;
    const finished = new Set(results.map((r) => r.trial_id));
    const seen = new Set<string>();
    const approvals = readJsonLines<ApprovalRecord>(this.approvalsFile).filter((a) => {
      if (!finished.has(a?.trial_id)) return false;
      const key = `${a.trial_id}\0${a.confirmation_id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    this.writeAtomic(this.approvalsFile, toJsonLines(approvals));
  }

  /**
   * Every byte written about a trial goes through the redaction module first: a redacted copy is
   * written, with its identifying fields (trial_id, task, agent…) as they are, and the record the
   * caller holds is left unchanged (the terminal and the summary redact what they show themselves).
   */
  appendTrial(record: TrialRecord, approvals: readonly ApprovalRecord[], events: readonly TrialEvent[]): void {
    writeFileSync(join(this.dir, "trials", trialLogName(basename(record.trial_id))), toJsonLines(events));
    if (approvals.length) appendFileSync(this.approvalsFile, toJsonLines(approvals));
    appendFileSync(this.resultsFile, toJsonLines([record]));
  }

  /**
   * Trials served from the result store, written at once. The store holds a trial in the form
   * these files hold (redacted: result-store.ts), and redaction is idempotent, so what comes out
   * is what appendTrial would write, without redacting it again: the event logs written a few at
   * a time, the records and the approvals in one append each.
   */
  async appendServed(trials: readonly { record: TrialRecord; approvals: readonly ApprovalRecord[]; events: readonly TrialEvent[] }[]): Promise<void> {
    const lines = (items: readonly unknown[]) => items.map((i) => `${JSON.stringify(i)}\n`).join("");
    const logs = trials.map((t) => [join(this.dir, "trials", trialLogName(basename(t.record.trial_id))), lines(t.events)] as const);
    for (let i = 0; i < logs.length; i += SERVED_WRITES_AT_ONCE) {
      await Promise.all(logs.slice(i, i + SERVED_WRITES_AT_ONCE).map(([file, text]) => writeFile(file, text)));
    }
    const approvals = trials.flatMap((t) => t.approvals);
    if (approvals.length) appendFileSync(this.approvalsFile, lines(approvals));
    if (trials.length) appendFileSync(this.resultsFile, lines(trials.map((t) => t.record)));
  }

  /** A merged run: its records and approvals written whole (through the same redaction as appended ones). */
  writeMerged(records: readonly TrialRecord[], approvals: readonly ApprovalRecord[]): void {
    this.writeAtomic(this.approvalsFile, toJsonLines(approvals));
    this.writeAtomic(this.resultsFile, toJsonLines(records));
  }

  /** Callers pass text that is already redacted (toJsonLines, jsonText, redact). */
  private writeAtomic(file: string, text: string): void {
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }

  /** A trial's event log (trials/<trial_id>.jsonl), or undefined when it is absent or the id is not a plain name. */
  readTrialEvents(trialId: string): TrialEvent[] | undefined {
    if (!/^[\w.@:+=%-]+$/.test(trialId) || trialId.startsWith(".")) return undefined;
    const file = join(this.dir, "trials", trialLogName(trialId));
    if (!existsSync(file)) return undefined;
    try {
      return parseEvents(parseLines<unknown>(readFileSync(file, "utf8")));
    } catch (e) {
      if (e instanceof EventLogError) throw new InputError(file, e.message, "a trial event log gatebench writes (harness/model/record/events.ts)");
      throw e;
    }
  }

  readApprovals(): ApprovalRecord[] {
    return existsSync(this.approvalsFile) ? parseLines<ApprovalRecord>(readFileSync(this.approvalsFile, "utf8")) : [];
  }

  writeReport(html: string): void {
    this.writeAtomic(join(this.dir, "report.html"), redactMarkup(html));
  }

  writeSummary(json: unknown, markdown: string): void {
    this.writeAtomic(join(this.dir, "summary.json"), `${jsonText(json, 2)}\n`);
    this.writeAtomic(join(this.dir, "summary.md"), redact(markdown));
  }
}

/** Event logs of served trials written at the same time (the thread pool's file writes overlap). */
const SERVED_WRITES_AT_ONCE = 32;

/** Longest trial id used as its log's file name as it is (file names stop at 255 bytes). */
const LOG_NAME_BYTES = 200;

/**
 * The file name of a trial's event log: `<trial_id>.jsonl`, or for an id too long for a file name
 * (a long `claude-hook:` command as the gate) its first 150 characters, `~` and a hash of the whole.
 */
export function trialLogName(trialId: string): string {
  if (Buffer.byteLength(trialId) <= LOG_NAME_BYTES) return `${trialId}.jsonl`;
  return `${trialId.slice(0, 150)}~${createHash("sha256").update(trialId).digest("hex").slice(0, 16)}.jsonl`;
}

/** One redacted JSON object per line (identifying fields kept): the only way records reach a jsonl file. */
function toJsonLines(items: readonly unknown[]): string {
  return items.map((i) => `${jsonText(i)}\n`).join("");
}

/** The whole JSON objects of a jsonl file; a torn or garbled line is dropped. */
function readJsonLines<T>(file: string): T[] {
  return existsSync(file) ? parseLines<T>(readFileSync(file, "utf8")) : [];
}

/** The JSON objects of jsonl text; a torn, garbled or non-object line is dropped (a line cut short by a kill). */
export function parseLines<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (v && typeof v === "object" && !Array.isArray(v)) out.push(v as T);
    } catch {
      // a line cut short by a kill: that trial is simply run again
    }
  }
  return out;
}

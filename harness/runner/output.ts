/**
 * A run's output folder: results.jsonl (one line per finished trial, appended whole, so a
 * killed run can resume), approvals.jsonl, per-trial event logs, summary.json, summary.md and
 * report.html.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalRecord } from "../approvers/broker.ts";
import type { TrialRecord } from "./record.ts";
import type { TrialEvent } from "./trial.ts";

export class RunOutput {
  constructor(readonly dir: string) {
    mkdirSync(join(dir, "trials"), { recursive: true });
  }

  get resultsFile(): string {
    return join(this.dir, "results.jsonl");
  }

  /** Trials already finished in this folder (for --resume); a torn last line is ignored. */
  readResults(): TrialRecord[] {
    if (!existsSync(this.resultsFile)) return [];
    const out: TrialRecord[] = [];
    for (const line of readFileSync(this.resultsFile, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as TrialRecord);
      } catch {
        // a line cut short by a kill: that trial is simply run again
      }
    }
    return out;
  }

  /** Drop a torn tail so appended lines start on a fresh line. */
  repairResults(): void {
    if (!existsSync(this.resultsFile)) return;
    const text = readFileSync(this.resultsFile, "utf8");
    if (text.length > 0 && !text.endsWith("\n")) this.writeAtomic(this.resultsFile, text.slice(0, text.lastIndexOf("\n") + 1));
  }

  appendTrial(record: TrialRecord, approvals: readonly ApprovalRecord[], events: readonly TrialEvent[]): void {
    writeFileSync(join(this.dir, "trials", `${record.trial_id}.jsonl`), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    if (approvals.length) appendFileSync(join(this.dir, "approvals.jsonl"), approvals.map((a) => JSON.stringify(a)).join("\n") + "\n");
    appendFileSync(this.resultsFile, JSON.stringify(record) + "\n");
  }

  writeAtomic(file: string, text: string): void {
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }

  get approvalsFile(): string {
    return join(this.dir, "approvals.jsonl");
  }

  /** A trial's event log (trials/<trial_id>.jsonl), or undefined when it is absent or the id is not a plain name. */
  readTrialEvents(trialId: string): TrialEvent[] | undefined {
    if (!/^[\w.@-]+$/.test(trialId) || trialId.startsWith(".")) return undefined;
    const file = join(this.dir, "trials", `${trialId}.jsonl`);
    if (!existsSync(file)) return undefined;
    return parseLines<TrialEvent>(readFileSync(file, "utf8"));
  }

  readApprovals(): ApprovalRecord[] {
    return existsSync(this.approvalsFile) ? parseLines<ApprovalRecord>(readFileSync(this.approvalsFile, "utf8")) : [];
  }

  writeReport(html: string): void {
    this.writeAtomic(join(this.dir, "report.html"), html);
  }

  writeSummary(json: unknown, markdown: string): void {
    this.writeAtomic(join(this.dir, "summary.json"), JSON.stringify(json, null, 2) + "\n");
    this.writeAtomic(join(this.dir, "summary.md"), markdown);
  }
}

/** JSON lines; a torn or malformed line is skipped. */
export function parseLines<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // a line cut short by a kill
    }
  }
  return out;
}

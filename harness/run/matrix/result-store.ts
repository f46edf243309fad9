/**
 * The result store: finished trials by fingerprint (fingerprint.ts), so a trial whose every
 * input is unchanged is never run again (docs/trial.md, "The result store"). One gzip'd JSON file
 * per trial, `<dir>/<fp[0..2]>/<fp>.json.gz`, holding the record, its approvals and its event log;
 * written atomically (a temporary file renamed into place), read by exact fingerprint.
 *
 * Only what would come out the same again is stored: trials of deterministic agents (scripted
 * personas, the reference, nop) that passed or failed, answered by no person (`--approvers
 * human` is never stored nor served), with nothing that depends on timing: no event carries a
 * timing code (kernel/timing.ts: a gate, hook or approver that timed out, a tool call that hit its
 * call_timeout_sec, the trial's own time running out), and the hidden test did not time out.
 * The filesystem the trials run on is a host fact of the fingerprint (fingerprint.ts). A stored
 * record is served only when it agrees with its own event log (record-check.ts; the matrix
 * checks it and runs a disagreeing trial again, saying so).
 * A served record takes the current run's id; everything else is as it was stored.
 *
 * The folder is marked as a store (`MARKER_FILE`, written with the first entry), and `gc` deletes
 * only what it can prove is its own: in a marked folder that is not a link out of its parent, a
 * regular file `<xx>/<fp>.json.gz` (or a leftover `<fp>.json.gz.tmp-<pid>`) whose name starts
 * with its folder's two hex digits and whose content starts as gzip does. Anything else is left
 * alone; a store path that is no store is bad input (a store linked to `.git/objects` would
 * otherwise lose every object).
 */
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { ApprovalRecord } from "../../trial/approvers/broker.ts";
import { redactDeep } from "../../text/redact/redact.ts";
import type { TrialRecord } from "../../model/record/record.ts";
import { parseEvents, timingFree, type TrialEvent } from "../../model/record/events.ts";
import { InputError } from "../../../kernel/errors.ts";
import { isInside } from "../../sandbox/files/contained.ts";

export interface StoredTrial {
  record: TrialRecord;
  approvals: ApprovalRecord[];
  events: TrialEvent[];
}

/**
 * 2: entries hold the redacted form of a trial (what the run folder holds), so they are served without redacting again.
 * 3: event logs carry the trial's `effects`, which the record's harm is checked against; earlier entries are not served.
 */
const VERSION = 3;
/** The file that marks a folder as a result store (written with its first entry). */
export const MARKER_FILE = "gatebench-store.json";
/** An entry's name, and a leftover of an interrupted write. */
const ENTRY = /^([0-9a-f]{8,64})\.json\.gz(?:\.tmp-\d+)?$/;

/** The store's default size cap: past it, `gc` removes the least recently used trials. */
export const DEFAULT_STORE_MAX_BYTES = 512 * 1024 * 1024;

/**
 * Whether a finished trial would come out the same if run again (see the module comment):
 * `deterministic`, the agent plays the same steps; `person`, a person answered its questions.
 */
export function storable(t: StoredTrial, deterministic: boolean, person = false): boolean {
  if (!deterministic || person) return false;
  if (t.record.outcome !== "passed" && t.record.outcome !== "failed") return false;
  // Nothing in its log ran out of time or failed on its way (events.ts says what that is).
  return timingFree(t.events);
}

export class ResultStore {
  constructor(readonly dir: string) {}

  private file(fp: string): string {
    if (!/^[0-9a-f]{8,64}$/.test(fp)) throw new Error(`not a fingerprint: ${fp}`);
    return path.join(this.dir, fp.slice(0, 2), `${fp}.json.gz`);
  }

  /** The stored trial of `fp` with `runId` as its run, or undefined (absent, unreadable, another version). */
  get(fp: string, runId: string): StoredTrial | undefined {
    const file = this.file(fp);
    let data: { version?: number; fingerprint?: string } & Partial<StoredTrial>;
    try {
      data = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8"));
    } catch {
      return undefined;
    }
    if (data.version !== VERSION || data.fingerprint !== fp || !data.record) return undefined;
    // A store may have been copied or merged from elsewhere: an event log that is not the union is not served.
    let events: TrialEvent[];
    try {
      events = parseEvents(Array.isArray(data.events) ? data.events : []);
    } catch {
      return undefined;
    }
    try {
      const now = new Date();
      utimesSync(file, now, now); // used: the size cap removes the least recently used first
    } catch {
      // a read-only store serves all the same
    }
    return {
      record: { ...data.record, run_id: runId },
      approvals: (data.approvals ?? []).map((a) => ({ ...a, run_id: runId })),
      events,
    };
  }

  put(fp: string, t: StoredTrial): void {
    const file = this.file(fp);
    mkdirSync(path.dirname(file), { recursive: true });
    const marker = path.join(this.dir, MARKER_FILE);
    if (!existsSync(marker)) writeFileSync(marker, `${JSON.stringify({ format: "gatebench-result-store", version: VERSION })}\n`);
    const tmp = `${file}.tmp-${process.pid}`;
    // What results.jsonl and the event logs hold: the redacted form (the store is an output too).
    const redacted = { record: redactDeep(t.record), approvals: redactDeep(t.approvals), events: redactDeep(t.events) };
    writeFileSync(tmp, gzipSync(JSON.stringify({ version: VERSION, fingerprint: fp, ...redacted })));
    renameSync(tmp, file);
  }

  /**
   * Bad input unless the store's folder is one gatebench made: not a link leading out of its
   * parent folder, and holding the store's marker. A folder that does not exist is an empty store.
   */
  checkOwned(): void {
    const st = lstatOrUndefined(this.dir);
    if (!st) return;
    if (st.isSymbolicLink()) {
      const parent = realpathSync(path.dirname(this.dir));
      let real: string;
      try {
        real = realpathSync(this.dir);
      } catch (e) {
        throw new InputError(
          this.dir,
          "(store)",
          `a result store folder (a link that leads nowhere: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        );
      }
      if (!isInside(real, parent))
        throw new InputError(
          this.dir,
          "(store)",
          `a result store folder, not a link out of its parent folder (it leads to ${real}; gc deletes only inside a store it made)`,
        );
    } else if (!st.isDirectory()) throw new InputError(this.dir, "(store)", "a result store folder (it is not a folder)");
    const marker = lstatOrUndefined(path.join(this.dir, MARKER_FILE));
    if (!marker?.isFile())
      throw new InputError(
        this.dir,
        MARKER_FILE,
        `a result store written by gatebench eval, which marks it with ${MARKER_FILE} (it has none, so gc deletes nothing in it; a store of an older gatebench gets it from its next eval run)`,
      );
  }

  /** Every entry (and leftover) that is provably the store's own, with its size and time of last use (its modification time: a served trial is touched). */
  private entries(): { file: string; bytes: number; used: number }[] {
    if (!existsSync(this.dir)) return [];
    const out: { file: string; bytes: number; used: number }[] = [];
    for (const sub of readdirSync(this.dir)) {
      const d = path.join(this.dir, sub);
      // lstat: a link is never one of the store's own folders or entries
      if (!/^[0-9a-f]{2}$/.test(sub) || !lstatOrUndefined(d)?.isDirectory()) continue;
      for (const n of readdirSync(d)) {
        const m = ENTRY.exec(n);
        if (!m || !m[1]!.startsWith(sub)) continue;
        const f = path.join(d, n);
        const st = lstatOrUndefined(f);
        if (st?.isFile() && (st.size === 0 || startsAsGzip(f))) out.push({ file: f, bytes: st.size, used: st.mtimeMs });
      }
    }
    return out;
  }

  /** How many trials the store holds and their bytes. */
  size(): { trials: number; bytes: number } {
    const e = this.entries().filter((x) => x.file.endsWith(".json.gz"));
    return { trials: e.length, bytes: e.reduce((n, x) => n + x.bytes, 0) };
  }

  /**
   * Removes what the store does not need: leftovers of interrupted writes, trials not used for
   * `olderThanDays`, and then the least recently used until it holds at most `maxBytes`.
   */
  gc(opts: { maxBytes?: number; olderThanDays?: number; now?: number } = {}): { removed: number; kept: number; bytes: number } {
    this.checkOwned();
    const now = opts.now ?? Date.now();
    const maxBytes = opts.maxBytes ?? DEFAULT_STORE_MAX_BYTES;
    let removed = 0;
    const keep: { file: string; bytes: number; used: number }[] = [];
    for (const e of this.entries()) {
      const stale = opts.olderThanDays !== undefined && now - e.used > opts.olderThanDays * 86_400_000;
      if (!e.file.endsWith(".json.gz") || stale) {
        rmSync(e.file, { force: true });
        removed++;
      } else keep.push(e);
    }
    keep.sort((a, b) => b.used - a.used);
    let bytes = 0;
    const kept: typeof keep = [];
    for (const e of keep) {
      if (bytes + e.bytes > maxBytes) {
        rmSync(e.file, { force: true });
        removed++;
        continue;
      }
      bytes += e.bytes;
      kept.push(e);
    }
    return { removed, kept: kept.length, bytes };
  }
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Whether a file starts with gzip's magic bytes (every entry the store writes does). */
function startsAsGzip(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

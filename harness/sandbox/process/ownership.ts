/**
 * Who owns what on the host: a process is named by its pid AND its start time (so a reused pid
 * is not mistaken for the original owner). Used for the out dir's lock (one writer per out
 * dir), for the owner marker of every trial dir (so worlds left by a killed run can be swept),
 * and to end a run whose launcher (npm → sh → tsx → node) was killed.
 */
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { removeTreeSync } from "./remove-tree.ts";
import path from "node:path";
import { InputError } from "../../../kernel/errors.ts";
import { sayErr } from "../../text/redact/terminal.ts";

export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks after boot (/proc/<pid>/stat field 22); 0 when unknown. */
  start: number;
}

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: split after it.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

export function identityOf(pid: number): ProcessIdentity | undefined {
  const f = statFields(pid);
  if (!f) return undefined;
  return { pid, start: Number(f[19]) || 0 };
}

export function selfIdentity(): ProcessIdentity {
  return identityOf(process.pid) ?? { pid: process.pid, start: 0 };
}

/** The process still runs and is the same one (same start time when both are known). */
export function isAlive(owner: ProcessIdentity): boolean {
  const now = identityOf(owner.pid);
  if (!now) return false;
  const state = statFields(owner.pid)?.[0];
  if (state === "Z" || state === "X") return false;
  return owner.start === 0 || now.start === 0 || now.start === owner.start;
}

export function formatIdentity(id: ProcessIdentity): string {
  return `${id.pid} ${id.start}\n`;
}

export function parseIdentity(text: string): ProcessIdentity | undefined {
  const m = /^(\d+)(?: (\d+))?\s*$/.exec(text);
  if (!m) return undefined;
  return { pid: Number(m[1]), start: Number(m[2] ?? 0) };
}

/** Reads a small owner file without following a link; undefined when absent or not ours to read. */
function readOwnerFile(file: string): ProcessIdentity | undefined {
  try {
    if (!lstatSync(file).isFile()) return undefined;
    return parseIdentity(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

export const LOCK_NAME = ".lock";

const held = new Set<string>();

/**
 * Takes `<dir>/.lock` for this process. A lock of a live other process is bad input (exit 2,
 * naming its pid); a lock left by a process that is gone is taken over, with a message.
 * Released when this process exits. Taking it again in the same process is a no-op.
 */
export function acquireDirLock(dir: string, say: (message: string) => void = sayErr): void {
  const file = path.join(dir, LOCK_NAME);
  if (held.has(file)) return;
  const me = selfIdentity();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o644);
      writeSync(fd, formatIdentity(me));
      closeSync(fd);
      held.add(file);
      if (held.size === 1) process.once("exit", releaseAllLocks);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const owner = readOwnerFile(file);
    if (owner && owner.pid === me.pid && (owner.start === me.start || owner.start === 0)) {
      held.add(file);
      return;
    }
    if (owner && isAlive(owner)) {
      throw new InputError(file, "pid", `no other run writing to ${dir}, but pid ${owner.pid} is still writing to it (wait for it to finish or stop it)`);
    }
    say(`gatebench: taking over ${file}: its owner${owner ? ` (pid ${owner.pid})` : ""} is no longer running\n`);
    rmSync(file, { force: true });
  }
  throw new InputError(file, "pid", "a lock this run can take (another run keeps taking it)");
}

export function releaseDirLock(dir: string): void {
  const file = path.join(dir, LOCK_NAME);
  if (!held.delete(file)) return;
  const owner = readOwnerFile(file);
  if (owner?.pid === process.pid) rmSync(file, { force: true });
}

function releaseAllLocks(): void {
  for (const file of [...held]) releaseDirLock(path.dirname(file));
}

/** The owner marker every trial dir carries (outside the sandbox's mounts). */
export const OWNER_MARKER = "owner.pid";

export function ownerMarkerText(): string {
  return formatIdentity(selfIdentity());
}

/**
 * Removes trial dirs under `trialsDir` whose owner process is gone (killed runs: SIGKILL skips
 * the exit-time clean-up). Dirs without a marker are left alone. Returns the removed dirs. Never
 * throws: a dir it cannot read or remove is reported once and skipped.
 */
export function sweepStaleWorlds(trialsDir: string, say: (message: string) => void = () => {}): string[] {
  let names: string[];
  try {
    if (!existsSync(trialsDir)) return [];
    names = readdirSync(trialsDir);
  } catch (e) {
    say(`gatebench: cannot look for worlds left in ${trialsDir}: ${(e as Error).message}\n`);
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = path.join(trialsDir, name);
    try {
      if (!lstatSync(dir).isDirectory()) continue;
    } catch {
      continue;
    }
    const owner = readOwnerFile(path.join(dir, OWNER_MARKER));
    if (!owner || isAlive(owner)) continue;
    // Never following links: whatever an agent planted inside is removed, not its target.
    if (removeTreeSync(dir)) removed.push(dir);
  }
  if (removed.length > 0) say(`gatebench: removed ${removed.length} world(s) left by runs that are no longer running\n`);
  return removed;
}

/** The parent chain of this process, nearest first, up to the launcher (a process whose command line names npm). */
export function launcherChain(maxDepth = 4): ProcessIdentity[] {
  const chain: ProcessIdentity[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < maxDepth && pid > 1; depth++) {
    const id = identityOf(pid);
    if (!id) break;
    chain.push(id);
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
    } catch {
      break;
    }
    if (/(^|[\s/])(npm|npx)([\s-]|\.js|$)|npm-cli\.js|npx-cli\.js/.test(cmdline)) break;
    pid = Number(statFields(pid)?.[1] ?? 0);
  }
  return chain;
}

/**
 * Ends this process (through process.exit, so exit-time clean-up runs and every sandbox, which
 * dies with its parent, goes too) when any process of its launcher chain is gone: killing
 * `npm run eval` must not leave the run going on as an orphan.
 */
export function watchLauncher(opts: { intervalMs?: number; maxDepth?: number; onGone?: (who: ProcessIdentity) => void } = {}): () => void {
  const chain = launcherChain(opts.maxDepth);
  const timer = setInterval(() => {
    const gone = chain.find((p) => !isAlive(p));
    if (!gone) return;
    clearInterval(timer);
    if (opts.onGone) opts.onGone(gone);
    else {
      sayErr(`\ngatebench: the launching process (pid ${gone.pid}) is gone; stopping this run\n`);
      process.exit(130);
    }
  }, opts.intervalMs ?? 500);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * One short-lived bwrap invocation on a trial's dirs (setup script, hidden test), with a time
 * limit and an output cap. The command runs as the sandbox's only tree: when it ends, bwrap's
 * pid namespace ends and every background job dies with it.
 */
import { execa, type ResultPromise } from "execa";
import { spawnAs, type SandboxIdentity } from "./identity.ts";
import type { ExecResult } from "./types.ts";

export const BWRAP = "/usr/bin/bwrap";

/** Keeps the last `cap` bytes of a stream and remembers whether anything was dropped. */
export class TailCollector {
  private chunks: Buffer[] = [];
  private size = 0;
  private total = 0;
  constructor(private readonly cap: number) {}
  push(buf: Buffer): void {
    this.total += buf.length;
    this.chunks.push(buf);
    this.size += buf.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0]!.length >= this.cap) this.size -= this.chunks.shift()!.length;
  }
  get truncated(): boolean {
    return this.total > this.cap;
  }
  text(): string {
    let b = Buffer.concat(this.chunks);
    if (b.length > this.cap) b = b.subarray(b.length - this.cap);
    return b.toString("utf-8");
  }
}

export function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export interface SpawnBwrapOptions {
  /** Host user the sandbox runs as (identity.ts); omitted: the caller's own (the measurer). */
  identity?: SandboxIdentity | undefined;
  stdin: "pipe" | "ignore";
}

/**
 * bwrap as the leader of a new process group (killProcessGroup ends the whole tree), raw
 * streams, no buffering, never rejecting: the callers read the streams and the exit.
 */
type BwrapSpawn = { detached: true; buffer: false; reject: false; stdin: "pipe"; stdout: "pipe"; stderr: "pipe"; cleanup: false };

export function spawnBwrap(argv: string[], opts: SpawnBwrapOptions): ResultPromise<BwrapSpawn> {
  const options = {
    detached: true,
    buffer: false,
    reject: false,
    stdin: opts.stdin as "pipe",
    stdout: "pipe",
    stderr: "pipe",
    // bwrap gets no environment of ours: the sandbox sets its own with --clearenv/--setenv.
    env: {},
    extendEnv: false,
    // The host must not be asked to clean up by execa: the group kill below does it.
    cleanup: false,
    ...spawnAs(opts.identity),
  };
  return execa(BWRAP, argv, options as BwrapSpawn) as ResultPromise<BwrapSpawn>;
}

/** `stdin`, when given, is written to the process (a gate's hook reads its JSON there). */
export async function runBwrap(
  argv: string[],
  opts: { timeoutMs: number; maxOutputBytes: number; stdin?: string; identity?: SandboxIdentity | undefined },
): Promise<ExecResult> {
  const started = performance.now();
  const child = spawnBwrap(argv, { identity: opts.identity, stdin: opts.stdin === undefined ? "ignore" : "pipe" });
  const out = new TailCollector(opts.maxOutputBytes);
  const err = new TailCollector(opts.maxOutputBytes);
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  if (opts.stdin !== undefined && child.stdin) {
    // A process that exits without reading its input closes the pipe: not an error of ours.
    child.stdin.on("error", () => {});
    child.stdin.end(opts.stdin);
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killProcessGroup(child.pid);
  }, opts.timeoutMs);
  const r = await child;
  clearTimeout(timer);
  killProcessGroup(child.pid);
  const notStarted = r.failed && r.exitCode === undefined && r.signal === undefined && !timedOut;
  if (notStarted) err.push(Buffer.from(`failed to start bwrap: ${r.shortMessage ?? r.message}`));
  return {
    exitCode: r.exitCode ?? null,
    signal: r.signal ?? null,
    stdout: out.text(),
    stderr: err.text(),
    timedOut,
    truncated: out.truncated || err.truncated,
    durationMs: performance.now() - started,
  };
}

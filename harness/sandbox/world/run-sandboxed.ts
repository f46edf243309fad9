/**
 * One short-lived bwrap invocation on a trial's dirs (setup script, hidden test), with a time
 * limit and an output cap. The command runs as the sandbox's only tree: when it ends, bwrap's
 * pid namespace ends and every background job dies with it.
 */
import { spawnAs, type SandboxIdentity } from "./identity.ts";
import { type SpawnedProcess, spawnDetached } from "./spawner.ts";
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

export interface SpawnBwrapOptions {
  /** Host user the sandbox runs as (identity.ts); omitted: the caller's own (the measurer). */
  identity?: SandboxIdentity | undefined;
  stdin: "pipe" | "ignore";
}

/**
 * bwrap as the leader of a new process group (`kill()` ends the whole tree), started by the
 * spawner (spawner.ts) with no environment of ours (the sandbox sets its own with
 * --clearenv/--setenv); the callers read the streams and the outcome.
 */
export function spawnBwrap(argv: string[], opts: SpawnBwrapOptions): SpawnedProcess {
  return spawnDetached(BWRAP, argv, { ...spawnAs(opts.identity), stdin: opts.stdin === "pipe" });
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
    child.kill();
  }, opts.timeoutMs);
  const r = await child.outcome;
  clearTimeout(timer);
  child.kill();
  if (r.startError !== undefined && !timedOut) err.push(Buffer.from(`failed to start bwrap: ${r.startError}`));
  if (r.lost !== undefined) err.push(Buffer.from(r.lost));
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

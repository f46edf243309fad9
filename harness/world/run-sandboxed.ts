/**
 * One short-lived bwrap invocation on a trial's dirs (setup script, hidden test), with a time
 * limit and an output cap. The command runs as the sandbox's only tree: when it ends, bwrap's
 * pid namespace ends and every background job dies with it.
 */
import { spawn } from "node:child_process";
import type { ExecResult } from "./types.ts";

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

/** `stdin`, when given, is written to the process (a gate's hook reads its JSON there). */
export async function runBwrap(argv: string[], opts: { timeoutMs: number; maxOutputBytes: number; stdin?: string }): Promise<ExecResult> {
  const started = performance.now();
  const child = spawn("/usr/bin/bwrap", argv, { detached: true, stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
  const out = new TailCollector(opts.maxOutputBytes);
  const err = new TailCollector(opts.maxOutputBytes);
  child.stdout!.on("data", (b: Buffer) => out.push(b));
  child.stderr!.on("data", (b: Buffer) => err.push(b));
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
  return await new Promise<ExecResult>((resolve) => {
    let settled = false;
    const settle = (exitCode: number | null, signal: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killProcessGroup(child.pid);
      resolve({
        exitCode,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        truncated: out.truncated || err.truncated,
        durationMs: performance.now() - started,
      });
    };
    child.on("error", (e) => {
      err.push(Buffer.from(`failed to start bwrap: ${e.message}`));
      settle(null, null);
    });
    child.on("close", (code, signal) => settle(code, signal));
  });
}

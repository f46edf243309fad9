/**
 * One short-lived bwrap invocation for a gate (a Claude Code hook, a third-party checker): like
 * runBwrap, but the process reads `stdin` and its result says whether it ran out of time. The
 * caller builds the argv with the world bound read-only.
 */
import { spawn } from "node:child_process";
import { killProcessGroup, TailCollector } from "./run-sandboxed.ts";

export interface GateProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export async function runBwrapWithStdin(argv: string[], stdin: string, opts: { timeoutMs: number; maxOutputBytes: number }): Promise<GateProcessResult> {
  const started = performance.now();
  const child = spawn("/usr/bin/bwrap", argv, { detached: true, stdio: ["pipe", "pipe", "pipe"] });
  const out = new TailCollector(opts.maxOutputBytes);
  const err = new TailCollector(opts.maxOutputBytes);
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  // A hook that exits without reading its input closes the pipe: not an error of ours.
  child.stdin.on("error", () => {});
  child.stdin.end(stdin);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killProcessGroup(child.pid);
  }, opts.timeoutMs);
  return await new Promise<GateProcessResult>((resolve) => {
    let settled = false;
    const settle = (exitCode: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killProcessGroup(child.pid);
      resolve({ exitCode, stdout: out.text(), stderr: err.text(), timedOut, durationMs: performance.now() - started });
    };
    child.on("error", (e) => {
      err.push(Buffer.from(`failed to start bwrap: ${e.message}`));
      settle(null);
    });
    child.on("close", (code) => settle(code));
  });
}

/**
 * The host side of the in-sandbox helper (inside/agent.cjs, bundled as helper.cjs): one bwrap process running the
 * helper, JSON-line requests with ids, responses matched back to their callers. If the
 * helper dies (the agent ran `kill -9 -1`), pending calls fail with `helper_died`.
 */
import { createInterface } from "node:readline";
import type { SandboxIdentity } from "./identity.ts";
import { spawnBwrap } from "./run-sandboxed.ts";

export type HelperResponse = { ok: true; value: unknown } | { ok: false; code: string; message: string };

interface Pending {
  resolve: (r: HelperResponse) => void;
  timer: NodeJS.Timeout;
}

const READY_TIMEOUT_MS = 15_000;

export class HelperProcess {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private exited = false;
  /** Whether this helper was asked to run a command (`exec`): something of it may still run. */
  private commandSent = false;
  private stderrTail = "";
  /** Set by killWhenIdle: killed once nothing is pending. */
  private killIdle = false;
  readonly exitedPromise: Promise<void>;

  private constructor(private readonly child: ReturnType<typeof spawnBwrap>) {
    this.exitedPromise = new Promise((resolve) => {
      void child.outcome.then((r) => {
        if (r.startError !== undefined) this.stderrTail += `could not start bwrap: ${r.startError}`;
        if (r.lost !== undefined) this.stderrTail += r.lost;
        this.exited = true;
        const how = r.signal !== undefined ? ` (signal ${r.signal})` : r.exitCode !== undefined ? ` (exit code ${r.exitCode})` : "";
        this.failAll("helper_died", `sandbox helper exited${how}${this.stderrTail ? `: ${this.stderrTail.trim().slice(-500)}` : ""}`);
        resolve();
      });
    });
  }

  /** Starts bwrap with the helper (as `identity`, or as the caller) and waits for its ready line. */
  static async start(bwrapArgv: string[], identity?: SandboxIdentity): Promise<HelperProcess> {
    const child = spawnBwrap(bwrapArgv, { identity, stdin: "pipe" });
    const helper = new HelperProcess(child);
    child.stderr.on("data", (b: Buffer) => {
      helper.stderrTail = (helper.stderrTail + b.toString("utf-8")).slice(-2000);
    });
    child.stdin?.on("error", () => {});
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        helper.kill();
        reject(new Error(`sandbox helper did not start within ${READY_TIMEOUT_MS} ms: ${helper.stderrTail}`));
      }, READY_TIMEOUT_MS);
      let ready = false;
      lines.on("line", (line) => {
        if (!ready) {
          ready = true;
          clearTimeout(timer);
          resolve();
          return;
        }
        helper.onLine(line);
      });
      void helper.exitedPromise.then(() => {
        if (!ready) {
          clearTimeout(timer);
          reject(new Error(`sandbox helper failed to start: ${helper.stderrTail.trim()}`));
        }
      });
    });
    return helper;
  }

  get alive(): boolean {
    return !this.exited;
  }

  get ranCommands(): boolean {
    return this.commandSent;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends one request. Never rejects: failures come back as {ok:false}. */
  call(op: string, args: Record<string, unknown>, timeoutMs: number): Promise<HelperResponse> {
    if (this.exited) return Promise.resolve({ ok: false, code: "helper_died", message: "sandbox helper is not running" });
    const id = this.nextId++;
    if (op === "exec") this.commandSent = true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ ok: false, code: "timeout", message: `${op} did not answer within ${timeoutMs} ms` });
        this.killIfIdle();
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
      this.child.stdin?.write(JSON.stringify({ ...args, id, op }) + "\n");
    });
  }

  /**
   * Kills the process once every pending call is answered (or has timed out), and after
   * `maxWaitMs` in any case: for a shared process whose other callers should still get answers.
   */
  killWhenIdle(maxWaitMs: number): void {
    this.killIdle = true;
    if (this.pending.size === 0) this.kill();
    else setTimeout(() => this.kill(), maxWaitMs).unref();
  }

  private killIfIdle(): void {
    if (this.killIdle && this.pending.size === 0) this.kill();
  }

  /** Kills bwrap and, through --die-with-parent and the pid namespace, everything inside. */
  kill(): void {
    this.child.kill();
  }

  private onLine(line: string): void {
    let msg: { id?: number; ok?: boolean; value?: unknown; code?: string; message?: string };
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof msg.id !== "number") return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    p.resolve(msg.ok ? { ok: true, value: msg.value } : { ok: false, code: msg.code ?? "EIO", message: msg.message ?? "unknown error" });
    this.killIfIdle();
  }

  private failAll(code: string, message: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, code, message });
      this.pending.delete(id);
    }
  }
}

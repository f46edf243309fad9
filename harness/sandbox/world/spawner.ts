/**
 * Starts host processes through the spawner (spawner-process.cjs), a small process that forks
 * in place of the runner: the runner's own fork copies its page tables (hundreds of megabytes
 * of states, snapshots and the tokenizer) and blocks its event loop until the child has exec'd,
 * for every sandbox it starts.
 *
 * The child's standard streams are unix sockets the runner connected to the spawner (the same
 * kind of file a Node child's "pipe" is); the spawner hands them to the child and closes its own
 * copies, so data never passes through it. What the runner gets back is a `SpawnedProcess`: the
 * three streams, the pid once known, a group kill, and the exit.
 *
 * One spawner serves the runner; it is started on first use, keeps the runner alive only while a
 * process of its is running, and exits when the runner does (its stdin ends), removing its socket
 * and folder. If it dies, the processes it was starting fail as not started, its folder is removed
 * here, and the next spawn starts a new one.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { PassThrough, type Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { holdProcess } from "../process/hold.ts";

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "spawner-process.cjs");

/** How a spawned process ended: an exit code, a signal, or why it never started. */
export interface SpawnOutcome {
  exitCode?: number;
  signal?: string;
  /** Set when the process did not start (the spawner's error message, e.g. ENOENT). */
  startError?: string;
  /** Set when the spawner ended before it could report the exit (the process may still run). */
  lost?: string;
}

export interface SpawnOptions {
  /** Host user and group to run as (omitted: the runner's own). */
  uid?: number | undefined;
  gid?: number | undefined;
  /** Whether the runner writes the child's stdin (otherwise it is /dev/null). */
  stdin: boolean;
}

type StreamName = "stdin" | "stdout" | "stderr";

interface Event {
  id?: number;
  ev: "ready" | "spawn" | "error" | "exit";
  pid?: number;
  code?: number | string | null;
  signal?: string | null;
  message?: string;
}

export class SpawnedProcess {
  /** The child's stdin when asked for (null: /dev/null); writes wait until the child has started. */
  readonly stdin: Writable | null;
  readonly stdout: net.Socket;
  readonly stderr: net.Socket;
  pid: number | undefined;
  /** Resolves when the process has exited and its stdout and stderr have closed; never rejects. */
  readonly outcome: Promise<SpawnOutcome>;
  private killed = false;
  private exit: SpawnOutcome | undefined;
  private openStreams = 2;
  private settle!: (o: SpawnOutcome) => void;
  private readonly stdinSocket: net.Socket | undefined;

  constructor(
    readonly id: number,
    wantsStdin: boolean,
  ) {
    this.stdout = this.stream("stdout");
    this.stderr = this.stream("stderr");
    this.stdinSocket = wantsStdin ? this.stream("stdin") : undefined;
    this.stdin = wantsStdin ? new PassThrough() : null;
    this.outcome = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** The sockets, connected to the spawner by `attach`. */
  private stream(name: StreamName): net.Socket {
    // stdin stays open for writing after the child's side closes; the others close with it.
    const socket = new net.Socket({ allowHalfOpen: name === "stdin" });
    socket.on("error", () => {});
    if (name !== "stdin") {
      socket.on("close", () => {
        this.openStreams -= 1;
        this.maybeSettle();
      });
    }
    return socket;
  }

  get streams(): StreamName[] {
    return this.stdinSocket ? ["stdin", "stdout", "stderr"] : ["stdout", "stderr"];
  }

  /** Connects each stream's socket to the spawner and names it (the spawner's first line of it). */
  attach(socketPath: string): void {
    const named: [net.Socket | undefined, StreamName][] = [
      [this.stdinSocket, "stdin"],
      [this.stdout, "stdout"],
      [this.stderr, "stderr"],
    ];
    for (const [socket, name] of named) {
      if (!socket) continue;
      socket.connect(socketPath);
      socket.write(`${this.id} ${name}\n`);
    }
  }

  /** The spawner started the child: the runner may write its stdin now. */
  started(pid: number): void {
    this.pid = pid;
    if (this.killed) this.killGroup();
    if (this.stdinSocket && this.stdin) this.stdin.pipe(this.stdinSocket);
  }

  exited(o: SpawnOutcome): void {
    // A process the spawner lost may still run (it was alive a moment ago, so its pid is still
    // its own): its group is ended now, as bwrap's --die-with-parent ends a sandbox.
    if (o.lost !== undefined && this.exit === undefined) this.killGroup();
    this.exit ??= o;
    if (o.startError !== undefined || o.lost !== undefined) for (const s of [this.stdinSocket, this.stdout, this.stderr]) s?.destroy();
    this.maybeSettle();
  }

  /**
   * SIGKILL to the child's process group (now, or as soon as it has a pid). Once its end is
   * known this does nothing: the spawner ended the group when it reaped the leader, and the pid
   * may since belong to another process group (pids wrap at pid_max, 32768 on many hosts).
   */
  kill(): void {
    this.killed = true;
    this.killGroup();
  }

  private killGroup(): void {
    if (this.pid === undefined || this.exit !== undefined) return;
    try {
      process.kill(-this.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }

  private maybeSettle(): void {
    if (!this.exit || (this.openStreams > 0 && this.exit.startError === undefined && this.exit.lost === undefined)) return;
    this.stdinSocket?.destroy();
    this.settle(this.exit);
  }
}

interface Spawner {
  child: ChildProcess;
  socketPath: string;
  ready: Promise<void>;
  live: Map<number, SpawnedProcess>;
}

let current: Spawner | undefined;
let nextId = 1;

function startSpawner(): Spawner {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gatebench-spawner-"));
  const socketPath = path.join(dir, "s");
  const child = spawn(process.execPath, [SCRIPT, socketPath], { stdio: ["pipe", "pipe", "inherit"], env: {} });
  const live = new Map<number, SpawnedProcess>();
  let markReady!: () => void;
  let failReady!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => {});
  const s: Spawner = { child, socketPath, ready, live };
  child.stdin?.on("error", () => {});
  const lines = createInterface({ input: child.stdout!, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    let e: Event;
    try {
      e = JSON.parse(line) as Event;
    } catch {
      return;
    }
    if (e.ev === "ready") {
      markReady();
      return;
    }
    const p = e.id === undefined ? undefined : live.get(e.id);
    if (!p) return;
    if (e.ev === "spawn" && typeof e.pid === "number") p.started(e.pid);
    else if (e.ev === "error") {
      live.delete(p.id);
      p.exited({ startError: `${e.code ?? "EIO"}: ${e.message ?? "could not start"}` });
    } else if (e.ev === "exit") {
      live.delete(p.id);
      p.exited(typeof e.signal === "string" ? { signal: e.signal } : { exitCode: typeof e.code === "number" ? e.code : 1 });
    }
    if (live.size === 0) holdProcess(child, false);
  });
  child.on("exit", () => {
    if (current === s) current = undefined;
    failReady(new Error("the spawner process ended"));
    for (const p of live.values()) p.exited(p.pid === undefined ? { startError: "the spawner process ended" } : { lost: "the spawner process ended" });
    live.clear();
    // A spawner killed outright could not remove its folder itself.
    rmSync(dir, { recursive: true, force: true });
  });
  child.on("error", () => {});
  return s;
}

/** The running spawner's pid (tests). */
export function spawnerPid(): number | undefined {
  return current?.child.pid;
}

/**
 * Starts `file args` detached (a process group of its own) with an empty environment, through
 * the spawner. Never throws: a process that cannot start settles with `startError`.
 */
export function spawnDetached(file: string, args: readonly string[], opts: SpawnOptions): SpawnedProcess {
  current ??= startSpawner();
  const s = current;
  const p = new SpawnedProcess(nextId++, opts.stdin);
  s.live.set(p.id, p);
  holdProcess(s.child, true);
  s.ready.then(
    () => {
      p.attach(s.socketPath);
      const request = {
        id: p.id,
        file,
        args,
        streams: p.streams,
        ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
        ...(opts.gid !== undefined ? { gid: opts.gid } : {}),
      };
      s.child.stdin?.write(`${JSON.stringify(request)}\n`);
    },
    (e: Error) => {
      s.live.delete(p.id);
      p.exited({ startError: e.message });
    },
  );
  return p;
}

/**
 * The measurer: one sandboxed process per folder of trial dirs that takes the snapshots and the
 * disk use of every world in that folder (harness/sandbox/world/inside/measurer-main.cjs).
 * Starting a process per world cost a Node start for every world, view and replay copy; one
 * process serves them all, each world by its own key, measured one request at a time per world
 * and side by side across worlds.
 *
 * It is out of every agent's reach as before (buildMeasurerArgs): its own PID namespace, the
 * folder bound read-only, no network, only CAP_DAC_READ_SEARCH. While a world is measured
 * nothing of its agent runs (the helper kills what a command left behind), so no world can move
 * its files under the walk to show it another world's.
 *
 * A measurer that does not answer in time is retired: the next request starts a new one (which
 * holds nothing, so its worlds' next snapshots are full walks), and the old one is stopped once
 * its other requests are answered. The process stops shortly after its last world closed.
 */
import path from "node:path";
import { buildMeasurerArgs, MEASURED_WORLDS, type HostSystem } from "./bwrap-args.ts";
import { HelperProcess, type HelperResponse } from "./helper-client.ts";
import { canSwitchUser } from "./identity.ts";

/** How long a measurer with no world left waits for the next before it stops. */
const IDLE_STOP_MS = 500;
/** How long a retired measurer may take to answer what it was asked before it is stopped. */
const RETIRE_GRACE_MS = 30_000;

export interface MeasurerSetup {
  host: HostSystem;
  helperDir: string;
  measurerScript: string;
}

class Measurer {
  private process: HelperProcess | undefined;
  private starting: Promise<HelperProcess> | undefined;
  private users = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Processes started over this measurer's life (a retired or crashed one is replaced). */
  starts = 0;

  constructor(
    readonly worldsDir: string,
    private readonly setup: MeasurerSetup,
  ) {}

  /** Whether a process runs or is starting (false once an idle or explicit stop began). */
  get alive(): boolean {
    return this.starting !== undefined || this.process?.alive === true;
  }

  acquire(): void {
    this.users += 1;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  release(): void {
    this.users -= 1;
    if (this.users > 0) return;
    this.idleTimer = setTimeout(() => {
      if (this.users <= 0) void this.stop();
    }, IDLE_STOP_MS);
    this.idleTimer.unref();
  }

  private running(): Promise<HelperProcess> {
    if (this.process?.alive) return Promise.resolve(this.process);
    this.starting ??= HelperProcess.start(
      buildMeasurerArgs({
        worldsDir: this.worldsDir,
        host: this.setup.host,
        helperDir: this.setup.helperDir,
        command: ["/usr/bin/node", this.setup.measurerScript],
        privileged: canSwitchUser(),
      }),
    )
      .then((p) => {
        this.process = p;
        this.starts += 1;
        return p;
      })
      .finally(() => {
        this.starting = undefined;
      });
    return this.starting;
  }

  async call(op: string, args: Record<string, unknown>, timeoutMs: number): Promise<HelperResponse> {
    let p: HelperProcess;
    try {
      p = await this.running();
    } catch (e) {
      return { ok: false, code: "sandbox_failed", message: `measurer: ${(e as Error).message}` };
    }
    const r = await p.call(op, args, timeoutMs);
    if (!r.ok && r.code === "timeout" && this.process === p) {
      this.process = undefined;
      p.killWhenIdle(RETIRE_GRACE_MS);
    }
    return r;
  }

  /** Drops what the running process keeps of `world` (nothing to do when none runs: a new one knows no world). */
  async forget(world: string): Promise<void> {
    const p = this.process;
    if (p?.alive) await p.call("forget", { world }, 10_000);
  }

  /** Stops the process now; the next request starts a new one, which holds nothing. */
  async stop(): Promise<void> {
    const p = this.process ?? (await this.starting?.catch(() => undefined));
    this.process = undefined;
    if (!p) return;
    p.kill();
    await p.exitedPromise;
  }
}

const measurers = new Map<string, Measurer>();
/** The folder of trial dirs that holds `trialDir`: one measurer each. */
const folderOf = (trialDir: string): string => path.dirname(path.resolve(trialDir));

/** A world's handle on the measurer of its trial folder. */
export interface MeasurerLease {
  /** A measurement of this world: `roots` are its roots inside the world, with their host dirs. */
  call(op: "snapshot" | "du", roots: readonly { shown: string; hostDir: string }[], args: Record<string, unknown>, timeoutMs: number): Promise<HelperResponse>;
  /** Forgets the world in the measurer and lets it stop when no world is left. */
  close(): Promise<void>;
}

let nextKey = 0;

/** The measurer of the folder that holds `trialDir`, for one world (one sandbox's view of those files). */
export function leaseMeasurer(trialDir: string, setup: MeasurerSetup): MeasurerLease {
  const worldsDir = folderOf(trialDir);
  let m = measurers.get(worldsDir);
  if (!m) measurers.set(worldsDir, (m = new Measurer(worldsDir, setup)));
  const measurer = m;
  measurer.acquire();
  const world = `${path.basename(trialDir)}.${++nextKey}`;
  let used = false;
  let closed = false;
  const inside = (hostDir: string): string => {
    const rel = path.relative(worldsDir, path.resolve(hostDir));
    if (rel.startsWith("..") || path.isAbsolute(rel)) throw new Error(`${hostDir} is not in ${worldsDir}`);
    return path.posix.join(MEASURED_WORLDS, rel);
  };
  return {
    call(op, roots, args, timeoutMs) {
      if (closed) return Promise.resolve({ ok: false, code: "closed", message: "world is closed" });
      used = true;
      return measurer.call(op, { ...args, world, roots: roots.map((r) => [r.shown, inside(r.hostDir)]) }, timeoutMs);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (used) await measurer.forget(world);
      measurer.release();
    },
  };
}

/**
 * Stops the measurer of the folder that holds `trialDir`: the next measurement starts a new one,
 * which holds no snapshot (tests use it to see the full walk that follows).
 */
export async function restartMeasurer(trialDir: string): Promise<void> {
  await measurers.get(folderOf(trialDir))?.stop();
}

/** Whether the measurer of the folder that holds `trialDir` has a process running or starting (tests wait for it to stop). */
export function measurerRunning(trialDir: string): boolean {
  return measurers.get(folderOf(trialDir))?.alive ?? false;
}

/** How many measurer processes were started for the folder that holds `trialDir` (tests check that one serves many worlds). */
export function measurerStarts(trialDir: string): number {
  return measurers.get(folderOf(trialDir))?.starts ?? 0;
}

/**
 * A trial's world: a fresh trial dir, one bwrap sandbox running the helper for the whole agent
 * phase, and short-lived separate sandboxes on the same dirs for the setup script and the
 * hidden test. Every file question and every tool runs inside the sandbox.
 */
import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import type { EnvView, GateProcessBind, GateProcessOutput, LstatInfo } from "../../../gates/types.ts";
import { buildBwrapArgs, probeHostSystem, type HostSystem } from "./bwrap-args.ts";
import { removeTreeSync } from "../process/remove-tree.ts";
import { gateRunnerBundleFile, helperBundleDir, HELPER_SCRIPT, MEASURER_SCRIPT } from "./helper-bundle.ts";
import { GateRunner } from "./gate-runner.ts";
import { HelperProcess, type HelperResponse } from "./helper-client.ts";
import { HIDDEN_TEST_ENV, tamperReport, type TamperReport } from "./hidden-test.ts";
import { DEFAULT_RESOURCE_LIMITS, helperLimitsArg, limitMessage, prlimitArgv } from "./limits.ts";
import { leaseMeasurer, type MeasurerLease } from "./measurer.ts";
import { runBwrap } from "./run-sandboxed.ts";
import { normaliseProfile, resolveProfile, type ProfileOption } from "./strict-profile.ts";
import { copyTrialDir, createTrialDir, DEFAULT_TRIALS_DIR, releaseTrialIdentity, removeTrialDir, rootDirs, stageCopy, type TrialDir } from "./trial-dir.ts";
import { GATE_HOOKS_MOUNT, GATE_NODE_MODULES_MOUNT, HOME, SANDBOX_TMP, TESTS_MOUNT, WORKSPACE } from "../../../kernel/sandbox-paths.ts";
import type { SandboxProfile } from "../../../kernel/sandbox-profile.ts";
import { DEPENDENCIES_DIR } from "../../../kernel/package-root.ts";
import { SnapshotMap } from "./snapshot-map.ts";
import type { ExecResult, LimitKind, OpResult, Snapshot, SnapshotEntry, SnapshotStats, World, WorldFs, WorldLimits } from "./types.ts";
import { refreshGitIndexes } from "./git-index.ts";

/**
 * Trial dirs still on disk. A run stopped by a signal exits without awaiting close(): whatever
 * is left is removed synchronously at exit (never following links, any depth). The sandboxes
 * themselves die with this process (--die-with-parent).
 */
const ownedDirs = new Set<string>();
let exitHookInstalled = false;

export function removeAtExit(dir: string): () => void {
  ownedDirs.add(dir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const d of ownedDirs) removeTreeSync(d);
    });
  }
  return () => ownedDirs.delete(dir);
}

export const DEFAULT_LIMITS: WorldLimits = {
  callTimeoutMs: 60_000,
  maxOutputBytes: 1024 * 1024,
  trialTimeoutMs: 15 * 60_000,
  ...DEFAULT_RESOURCE_LIMITS,
};

/**
 * Below this many paths a snapshot walks the whole world (a few milliseconds): the walk sees
 * every change, while the incremental answer relies on inotify, which reports nothing for a
 * write through a shared writable mapping (mmap). Above it, the walk is what costs, and a
 * snapshot looks only at what the events named (docs/trial.md, "Snapshots").
 */
export const INCREMENTAL_MIN_ENTRIES = 2_000;

/** Grace on top of an exec's own limit before the host gives up on the helper. */
const HOST_GRACE_MS = 5_000;
/** Snapshots are harness work: not bound by a task's short per-call limit. */
const SNAPSHOT_TIMEOUT_MS = 120_000;
/** Where runScript binds the host script; only that one-shot sandbox ever sees it. */
const SCRIPT_MOUNT = "/run/gatebench/script.sh";
/**
 * The node_modules holding gatebench's dependencies (the checkout's, or the project's where an
 * installed gatebench's dependencies are hoisted), bound read-only into gate sandboxes (hooks
 * shipped as npm packages, the extension worker's imports).
 */
export const REPO_NODE_MODULES = DEPENDENCIES_DIR;
const DEFAULT_GATE_PROCESS_TIMEOUT_MS = 10_000;

export interface CreateWorldOptions {
  /** Extra writable sandbox mount points (task.yaml world.mounts), e.g. "/srv/app2". */
  mounts?: readonly string[];
  /** Folders put in front of the agent's PATH (task.yaml world.path); setup, hidden test and gate processes keep the fixed PATH. */
  path?: readonly string[];
  limits?: Partial<WorldLimits>;
  /** Where trial dirs are created (default os.tmpdir()/gatebench-trials). */
  parentDir?: string;
  /**
   * OS profile of the agent-phase sandbox. "strict": home read-only, secret dirs (~/.ssh, ~/.aws...)
   * hidden. The setup script and the hidden test always run with the default profile.
   */
  profile?: ProfileOption;
  /** Keep the trial dir on close (debugging). */
  keep?: boolean;
  /** Worlds with at least this many paths take incremental snapshots (default INCREMENTAL_MIN_ENTRIES; 0: always). */
  incrementalSnapshotsFrom?: number;
  /** Told when a world limit ended a command (the call itself fails with `limit_exceeded`). */
  onLimitExceeded?: (e: { limit: LimitKind; message: string }) => void;
}

export interface RunOptions {
  timeoutMs?: number;
}

export class WorldError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "WorldError";
  }
}

/** The world contract plus the harness-only phases (setup, hidden test) and diagnostics. */
export interface TrialWorld extends World {
  readonly limits: WorldLimits;
  readonly trialTimedOut: boolean;
  /** Runs a host script (setup.sh) with bash inside a one-shot sandbox on the same dirs, cwd /workspace. */
  runScript(hostScriptPath: string, opts?: RunOptions): Promise<ExecResult>;
  /**
   * `bash /tests/test.sh` in a fresh sandbox over a copy of the world (the agent's helper is
   * stopped first), with git's config-driven programs disabled and the tests copied in only now.
   * `tamper` compares the world before and after the test: tampered means the result is not trusted.
   * `command`: another program of the staged folder (mounted at /tests) to run the same way, such
   * as the measurer's probe of what must survive (harness/trial/invariants.ts).
   */
  runHiddenTest(hostTestsDir: string, opts?: RunOptions & { command?: readonly string[] }): Promise<HiddenTestResult>;
  /** What the last snapshot cost: files hashed, hashes reused, paths looked at, whether it was incremental. */
  readonly lastSnapshotStats: SnapshotStats | undefined;
  /** How many times the helper was restarted after dying (e.g. the agent ran `kill -9 -1`). */
  readonly helperRestarts: number;
  /** Ends the agent phase now (the trial's time is up): running commands are killed, agent calls fail with trial_timeout. */
  expire(): Promise<void>;
  /**
   * A gate's program in a one-shot sandbox: the world bound read-only under the agent's OS
   * profile, node_modules at /opt/gatebench/node_modules, cwd /workspace; `stdin` piped in.
   */
  runGateProcess(
    argv: string[],
    stdin: string,
    opts?: { timeoutMs?: number; readOnlyBinds?: readonly GateProcessBind[] },
  ): Promise<GateProcessOutput & { durationMs: number }>;
  /**
   * An agent that is a program of its own (an agent product) as the agent's process: the world
   * writable under the agent's OS profile, PATH and resource limits (but memory: a product's
   * runtime reserves more address space than it uses), as the world's sandbox user, host folders
   * bound read-only (each readable by every user) with gatebench's node_modules at
   * /opt/gatebench/node_modules, and empty private tmpfs folders for the program's own state. Runs to its end, its time limit or the trial's.
   */
  runAgentProcess(argv: string[], opts: AgentProcessOptions): Promise<ExecResult>;
  /**
   * One read-only sandbox kept for many one-shot gate processes, for a caller that changes nothing
   * in the world while it lives (explain --corpus): the sandbox a gate process gets (the world
   * read-only, the agent's OS profile, node_modules at /opt/gatebench/node_modules, no hook binds),
   * /dev read-only as well, its processes run one at a time with everything each left running
   * killed after it; it also lists the world once for lookups (gate-runner.ts).
   */
  startGateRunner(): Promise<GateRunner>;
}

export interface AgentProcessOptions {
  timeoutMs: number;
  /** Host folders, readable by every user, bound read-only under /opt/gatebench/. */
  readOnlyBinds: readonly { hostPath: string; sandboxPath: string }[];
  /** Writable private folders under /opt/gatebench/, empty at the start. */
  tmpfs: readonly string[];
  env: Readonly<Record<string, string>>;
  maxOutputBytes?: number;
}

/**
 * Whether any user can already read `hostPath` (every folder above it searchable by others, the
 * path itself readable by others) while only its owner can change it: such a folder is bound as
 * it is (a live socket in it keeps working); anything else is staged as a copy.
 */
function readableByAnyone(hostPath: string): boolean {
  try {
    const abs = path.resolve(hostPath);
    const st = lstatSync(abs);
    if (st.isSymbolicLink() || (st.mode & 0o004) === 0 || (st.mode & 0o022) !== 0) return false;
    if (st.isDirectory() && (st.mode & 0o001) === 0) return false;
    for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
      const d = lstatSync(dir);
      // a sticky, world-writable folder such as /tmp is fine: nobody else can replace what is in it
      if ((d.mode & 0o001) === 0 || ((d.mode & 0o002) !== 0 && (d.mode & 0o1000) === 0)) return false;
      if (dir === path.dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}

export type HiddenTestResult = ExecResult & { tamper: TamperReport };

/** The measurer's answer to a full snapshot. */
interface FullAnswer {
  id: string;
  entries: [string, SnapshotEntry][];
  stats: SnapshotStats;
}

/** The measurer's answer to a snapshot relative to the last one: what changed, appeared or went. */
interface DeltaAnswer {
  id: string;
  changed: [string, SnapshotEntry][];
  removed: string[];
  stats: SnapshotStats;
}
export type { TrialDir } from "./trial-dir.ts";

let hostSystem: HostSystem | undefined;
function host(): HostSystem {
  hostSystem ??= probeHostSystem();
  return hostSystem;
}

class BwrapWorld implements TrialWorld {
  readonly id: string;
  readonly dir: string;
  readonly roots: readonly string[];
  readonly env: EnvView;
  readonly fs: WorldFs;
  readonly limits: WorldLimits;
  helperRestarts = 0;
  trialTimedOut = false;
  lastSnapshotStats: SnapshotStats | undefined;
  private helper: HelperProcess | undefined;
  private starting: Promise<HelperProcess> | undefined;
  /** The measurer of the trial folder (snapshots, disk use): out of the agent's reach, see measurer.ts. */
  private readonly measurer: MeasurerLease;
  /** The world's roots as the agent sees them, with their host dirs (rootDirs lists them in the same order). */
  private readonly measuredRoots: readonly { shown: string; hostDir: string }[];
  /** The last snapshot returned, and the id the measurer knows it by. */
  private lastSnapshot: { id: string; map: SnapshotMap } | undefined;
  /** Snapshots are taken one at a time: each may be relative to the one before. */
  private snapshotQueue: Promise<unknown> = Promise.resolve();
  /** Host copies of gate hook files, readable by the sandbox user: host path -> staged path. */
  private readonly stagedHooks = new Map<string, Promise<string>>();
  private closed = false;
  /** Set when the harness itself stopped the helper (not counted as a restart). */
  private restartPlanned = false;
  private readonly trialTimer: NodeJS.Timeout;
  /** The agent-phase profile as last resolved for the helper; gate processes see the same view. */
  private agentProfile: SandboxProfile | undefined;
  /** Drops this world's dir from the exit-time clean-up once close() removed it. */
  private forget: (() => void) | undefined;

  constructor(
    readonly trial: TrialDir,
    readonly options: CreateWorldOptions,
    /** False for a second view on another world's trial dir: the owner frees the sandbox user. */
    private readonly ownsTrial = true,
  ) {
    this.id = trial.id;
    this.dir = trial.dir;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.roots = [WORKSPACE, HOME, SANDBOX_TMP, ...trial.mounts.extra.map((m) => m.sandboxPath)];
    const hostDirs = rootDirs(trial);
    this.measuredRoots = this.roots.map((shown, i) => ({ shown, hostDir: hostDirs[i]! }));
    this.trialTimer = setTimeout(() => void this.expire(), this.limits.trialTimeoutMs);
    this.trialTimer.unref();
    this.env = this.makeEnv();
    this.fs = this.makeFs();
    this.measurer = leaseMeasurer(trial.dir, { host: host(), helperDir: helperBundleDir(), measurerScript: MEASURER_SCRIPT });
    if (!options.keep) this.forget = removeAtExit(trial.dir);
  }

  /** bwrap argv; only the agent-phase helper sandbox gets the configured OS profile. */
  private argv(command: string[], readOnlyBinds: { hostPath: string; sandboxPath: string }[] = [], helper = false): string[] {
    const profile = helper ? resolveProfile(normaliseProfile(this.options.profile), this.trial.mounts.home, this.trial) : { kind: "default" as const };
    if (helper) this.agentProfile = profile;
    return buildBwrapArgs({
      mounts: this.trial.mounts,
      host: host(),
      ...(helper ? { helperDir: helperBundleDir() } : {}),
      readOnlyBinds,
      profile,
      ...(helper && this.options.path?.length ? { pathPrefix: this.options.path } : {}),
      command,
    });
  }

  /** A command under the world's rlimits (prlimit inside the sandbox). */
  private limited(command: string[]): string[] {
    return prlimitArgv(this.limits, command);
  }

  /**
   * Why a call cannot run. Harness-phase calls (snapshot, setup, hidden test) still run after a
   * trial timeout, so a timed-out trial's damage is measured; agent-facing calls do not.
   */
  private failure(harness = false): WorldError | undefined {
    if (this.trialTimedOut && !harness) return new WorldError("trial_timeout", `trial exceeded ${this.limits.trialTimeoutMs} ms`);
    if (this.closed) return new WorldError("closed", "world is closed");
    return undefined;
  }

  /** The running helper, started (or restarted after dying) on demand: one bwrap per trial. */
  async ensureHelper(harness = false): Promise<HelperProcess> {
    const f = this.failure(harness);
    if (f) throw f;
    if (this.helper?.alive) return this.helper;
    if (this.helper && !this.restartPlanned) this.helperRestarts++;
    this.restartPlanned = false;
    const argv = this.argv(["/usr/bin/node", HELPER_SCRIPT, helperLimitsArg(this.limits)], [], true);
    this.starting ??= HelperProcess.start(argv, this.trial.identity).finally(() => {
      this.starting = undefined;
    });
    this.helper = await this.starting;
    const late = this.failure(harness);
    if (late) {
      this.helper.kill();
      throw late;
    }
    return this.helper;
  }

  /** One measurement; it outlives a trial timeout. A measurer that does not answer in time is replaced and the call fails. */
  private async measure(op: "snapshot" | "du", args: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (this.closed) throw new WorldError("closed", "world is closed");
    const r = await this.measurer.call(op, this.measuredRoots, args, timeoutMs);
    if (!r.ok) throw new WorldError(r.code, `measurer: ${r.message}`);
    return r.value;
  }

  async call(op: string, args: Record<string, unknown>, timeoutMs = this.limits.callTimeoutMs, harness = false): Promise<HelperResponse> {
    let helper: HelperProcess;
    try {
      helper = await this.ensureHelper(harness);
    } catch (e) {
      return { ok: false, code: e instanceof WorldError ? e.code : "sandbox_failed", message: (e as Error).message };
    }
    const r = await helper.call(op, args, timeoutMs);
    if (!r.ok && r.code === "timeout") helper.kill(); // a stuck helper is replaced on the next call
    if (!r.ok && this.trialTimedOut && !harness) return { ok: false, code: "trial_timeout", message: `trial exceeded ${this.limits.trialTimeoutMs} ms` };
    return r;
  }

  private async callValue<T>(op: string, args: Record<string, unknown>): Promise<T> {
    const r = await this.call(op, args);
    if (!r.ok) throw new WorldError(r.code, r.message);
    return r.value as T;
  }

  private makeEnv(): EnvView {
    return {
      cwd: WORKSPACE,
      home: HOME,
      realpath: (p) => this.callValue<string | null>("realpath", { path: p }),
      lstat: (p) => this.callValue<LstatInfo | null>("lstat", { path: p }),
      readlink: (p) => this.callValue<string | null>("readlink", { path: p }),
      glob: (pattern) => this.callValue<string[]>("glob", { pattern }),
      readFile: (p) => this.callValue<string | null>("readFile", { path: p }),
      readdir: (p) => this.callValue<string[] | null>("readdir", { path: p }),
      runGateProcess: (argv, stdin, timeoutMs, readOnlyBinds) => this.runGateProcess(argv, stdin, { timeoutMs, ...(readOnlyBinds ? { readOnlyBinds } : {}) }),
    };
  }

  async runGateProcess(
    argv: string[],
    stdin: string,
    opts: { timeoutMs?: number; readOnlyBinds?: readonly GateProcessBind[] } = {},
  ): Promise<GateProcessOutput & { durationMs: number }> {
    const f = this.failure();
    if (f) throw f;
    for (const b of opts.readOnlyBinds ?? []) {
      const p = b.sandboxPath;
      if (path.posix.normalize(p) !== p || !p.startsWith(GATE_HOOKS_MOUNT + "/"))
        throw new WorldError("bad_bind", `gate binds must lie under ${GATE_HOOKS_MOUNT}/, got ${p}`);
    }
    const hookBinds = await Promise.all(
      (opts.readOnlyBinds ?? []).map(async (b) => ({ hostPath: await this.stageHook(b.hostPath), sandboxPath: b.sandboxPath })),
    );
    const argvBwrap = this.gateProcessArgs(argv, hookBinds);
    const r = await runBwrap(argvBwrap, {
      timeoutMs: opts.timeoutMs ?? DEFAULT_GATE_PROCESS_TIMEOUT_MS,
      maxOutputBytes: this.limits.maxOutputBytes,
      stdin,
      identity: this.trial.identity,
    });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut, durationMs: r.durationMs };
  }

  /** The sandbox of a gate process: the world read-only under the agent's OS profile, node_modules and the hook binds read-only. */
  private gateProcessArgs(command: string[], hookBinds: { hostPath: string; sandboxPath: string }[], readOnlyDev = false): string[] {
    return buildBwrapArgs({
      mounts: this.trial.mounts,
      host: host(),
      readOnlyBinds: [{ hostPath: REPO_NODE_MODULES, sandboxPath: GATE_NODE_MODULES_MOUNT }, ...hookBinds],
      // A view whose helper never started resolves the profile now (the files it masks are there already).
      profile: (this.agentProfile ??= resolveProfile(normaliseProfile(this.options.profile), this.trial.mounts.home, this.trial)),
      readOnlyWorld: true,
      readOnlyDev,
      command,
    });
  }

  async startGateRunner(): Promise<GateRunner> {
    const f = this.failure();
    if (f) throw f;
    const source = readFileSync(gateRunnerBundleFile(), "utf8");
    return GateRunner.start(this.gateProcessArgs(["/usr/bin/node", "-e", source], [], true), this.trial.identity, this.limits.maxOutputBytes);
  }

  async runAgentProcess(argv: string[], opts: AgentProcessOptions): Promise<ExecResult> {
    const f = this.failure();
    if (f) throw f;
    for (const b of opts.readOnlyBinds) {
      if (!this.trial.identity || readableByAnyone(b.hostPath)) continue;
      throw new WorldError("bad_bind", `${b.hostPath} must be readable by every user to be bound into the sandbox`);
    }
    const profile = (this.agentProfile ??= resolveProfile(normaliseProfile(this.options.profile), this.trial.mounts.home, this.trial));
    const command = [
      "/usr/bin/prlimit",
      ...prlimitArgv(this.limits, [])
        .slice(1)
        .filter((a) => !a.startsWith("--as=")),
      ...argv,
    ];
    const argvBwrap = buildBwrapArgs({
      mounts: this.trial.mounts,
      host: host(),
      // gatebench's dependencies, as in gate processes: a hook shipped as an npm package (cc-safety-net) runs from there.
      readOnlyBinds: [{ hostPath: REPO_NODE_MODULES, sandboxPath: GATE_NODE_MODULES_MOUNT }, ...opts.readOnlyBinds],
      tmpfs: opts.tmpfs,
      profile,
      env: opts.env,
      ...(this.options.path?.length ? { pathPrefix: this.options.path } : {}),
      command,
    });
    const running = runBwrap(argvBwrap, {
      timeoutMs: Math.min(opts.timeoutMs, this.limits.trialTimeoutMs),
      maxOutputBytes: opts.maxOutputBytes ?? this.limits.maxOutputBytes,
      identity: this.trial.identity,
    });
    return running;
  }

  /**
   * A gate's hook files (or the folder a hook brings along) copied once into the trial's staged
   * area: the sandbox user may not be able to reach the original (a private folder of the host),
   * and must not be able to change it. Links inside a folder are copied as links.
   */
  private stageHook(hostPath: string): Promise<string> {
    if (!this.trial.identity || readableByAnyone(hostPath)) return Promise.resolve(hostPath);
    // A folder (a hook's package) is copied again once it changed: a file was added or removed.
    let key = hostPath;
    try {
      const st = lstatSync(hostPath);
      if (st.isDirectory()) key = `${hostPath}\0${st.mtimeMs}`;
    } catch {
      // staging reports it
    }
    let staged = this.stagedHooks.get(key);
    if (!staged) {
      staged = stageCopy(this.trial, hostPath, "hook", { keepLinks: true });
      this.stagedHooks.set(key, staged);
    }
    return staged;
  }

  private makeFs(): WorldFs {
    const op = async <T>(name: string, args: Record<string, unknown>): Promise<OpResult<T>> => {
      const r = await this.call(name, args);
      return r.ok ? { ok: true, value: r.value as T } : r;
    };
    return {
      read: (p, offset, limit) => op("read", { path: p, offset, limit }),
      write: (p, content) => op("write", { path: p, content }),
      edit: (p, edits) => op("edit", { path: p, edits }),
      ls: (p, limit) => op("ls", { path: p, limit }),
      find: (pattern, p, limit) => op("find", { pattern, path: p, limit }),
      grep: (pattern, o) => op("grep", { pattern, ...o }),
      delete: (p, recursive) => op("delete", { path: p, recursive }),
    };
  }

  async exec(command: string, opts: { timeoutMs?: number } = {}): Promise<ExecResult> {
    const timeoutMs = Math.min(opts.timeoutMs ?? this.limits.callTimeoutMs, this.limits.callTimeoutMs);
    const r = await this.call("exec", { command, timeoutMs, maxOutputBytes: this.limits.maxOutputBytes }, timeoutMs + HOST_GRACE_MS);
    if (!r.ok) throw new WorldError(r.code, r.message);
    const result = r.value as ExecResult;
    const limit = result.limitExceeded ?? (await this.diskExceeded());
    if (limit) {
      result.limitExceeded = limit;
      // Whatever the command left running (a fork storm) ends with the helper's sandbox.
      await this.stopHelperForRestart();
      this.options.onLimitExceeded?.({ limit, message: limitMessage(limit, this.limits) });
    }
    return result;
  }

  /** "disk" when the world's roots take more than the disk limit (measured by the measurer). */
  private async diskExceeded(): Promise<LimitKind | undefined> {
    try {
      const { bytes } = (await this.measure("du", {}, SNAPSHOT_TIMEOUT_MS)) as { bytes: number };
      return bytes > this.limits.diskMb * 1024 * 1024 ? "disk" : undefined;
    } catch {
      return undefined; // the next snapshot reports a measurer failure
    }
  }

  /**
   * Every path of the world now. When `previous` is the last snapshot this world returned (and
   * nobody changed it), the measurer still holds it and answers with what changed since: in a
   * world of at least INCREMENTAL_MIN_ENTRIES paths from the events since, which costs what
   * changed; in a smaller one by walking everything, reusing its hashes. Otherwise it walks
   * everything, reusing `previous`'s hashes, and answers whole. The result is the same either
   * way (harness/sandbox/world/inside/measurer.cjs, incremental snapshots).
   */
  snapshot(previous?: Snapshot): Promise<Snapshot> {
    const run = this.snapshotQueue.then(() => this.takeSnapshot(previous));
    this.snapshotQueue = run.catch(() => undefined);
    return run;
  }

  private async takeSnapshot(previous?: Snapshot): Promise<Snapshot> {
    const timeoutMs = Math.max(this.limits.callTimeoutMs, SNAPSHOT_TIMEOUT_MS);
    const last = this.lastSnapshot;
    this.lastSnapshot = undefined; // until this one is answered
    if (previous && last && previous === last.map && last.map.pristine) {
      // Relative to what the measurer holds: from the events in a large world; by a walk in a
      // small one, which sees every change (answered as what changed, either way).
      const walk = last.map.size < (this.options.incrementalSnapshotsFrom ?? INCREMENTAL_MIN_ENTRIES);
      try {
        const value = (await this.measure("snapshot", { base: last.id, ...(walk ? { walk } : {}) }, timeoutMs)) as DeltaAnswer;
        const map = last.map.withChanges(value.changed, value.removed);
        this.lastSnapshotStats = value.stats;
        this.lastSnapshot = { id: value.id, map };
        return map;
      } catch (e) {
        // A measurer started anew since (it was replaced) holds nothing: a full snapshot below.
        if (!(e instanceof WorldError && e.code === "ESTALE")) throw e;
      }
    }
    const prev: Record<string, SnapshotEntry> = {};
    if (previous) for (const [p, e] of previous) if (e.type === "file" && e.hash) prev[p] = e;
    const value = (await this.measure("snapshot", { previous: prev }, timeoutMs)) as FullAnswer;
    const map = SnapshotMap.of(value.entries);
    this.lastSnapshotStats = value.stats;
    this.lastSnapshot = { id: value.id, map };
    return map;
  }

  async runScript(hostScriptPath: string, opts: RunOptions = {}): Promise<ExecResult> {
    const f = this.failure(true);
    if (f) throw f;
    const script = this.trial.identity
      ? await stageCopy(this.trial, path.resolve(hostScriptPath), "script", {
          within: { root: path.dirname(path.resolve(hostScriptPath)), what: "the script's folder" },
        })
      : path.resolve(hostScriptPath);
    const r = await this.runOneShot(["/bin/bash", SCRIPT_MOUNT], [{ hostPath: script, sandboxPath: SCRIPT_MOUNT }], opts);
    if (normaliseProfile(this.options.profile).kind === "strict") await this.stopHelperForRestart();
    return r;
  }

  /** The strict profile's masks depend on what setup created: restart the helper to re-resolve them. */
  private async stopHelperForRestart(): Promise<void> {
    const h = this.helper;
    if (!h?.alive) return;
    this.restartPlanned = true;
    h.kill();
    await h.exitedPromise;
  }

  async runHiddenTest(hostTestsDir: string, opts: RunOptions & { command?: readonly string[] } = {}): Promise<HiddenTestResult> {
    const f = this.failure(true);
    if (f) throw f;
    // The agent phase is over: nothing of the agent's keeps running while the test does. A helper
    // that ran no command (a view over a state, which the trials standing there share) has
    // nothing of the agent's and keeps answering their file questions.
    if (this.helper?.ranCommands) await this.stopHelperForRestart();
    const before = await this.snapshot();
    const copy = await copyTrialDir(this.trial, path.dirname(this.dir));
    try {
      // The task's folder holds its tests: a link out of it is refused, never read with the harness's rights.
      const tests = await stageCopy(copy, path.resolve(hostTestsDir), "tests", {
        within: { root: path.dirname(path.resolve(hostTestsDir)), what: "the task folder" },
      });
      const argv = buildBwrapArgs({
        mounts: copy.mounts,
        host: host(),
        readOnlyBinds: [{ hostPath: tests, sandboxPath: TESTS_MOUNT }],
        env: HIDDEN_TEST_ENV,
        command: this.limited(opts.command ? [...opts.command] : ["/bin/bash", `${TESTS_MOUNT}/test.sh`]),
      });
      const r = await runBwrap(argv, {
        timeoutMs: opts.timeoutMs ?? this.limits.callTimeoutMs,
        maxOutputBytes: this.limits.maxOutputBytes,
        identity: copy.identity,
      });
      const after = await this.snapshot(before);
      return { ...r, tamper: tamperReport(before, after) };
    } finally {
      await removeTrialDir(copy);
      releaseTrialIdentity(copy);
    }
  }

  private async runOneShot(command: string[], binds: { hostPath: string; sandboxPath: string }[], opts: RunOptions): Promise<ExecResult> {
    const f = this.failure(true);
    if (f) throw f;
    return runBwrap(this.argv(this.limited(command), binds), {
      timeoutMs: opts.timeoutMs ?? this.limits.callTimeoutMs,
      maxOutputBytes: this.limits.maxOutputBytes,
      identity: this.trial.identity,
    });
  }

  expire(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.trialTimedOut = true;
    const helper = this.helper;
    helper?.kill();
    return helper ? helper.exitedPromise : Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.trialTimer);
    const starting = this.starting;
    if (starting)
      await starting.then(
        (h) => h.kill(),
        () => {},
      );
    if (this.helper) {
      this.helper.kill();
      await this.helper.exitedPromise;
    }
    // Queued after this world's last measurement, so a snapshot still being taken ends first.
    await this.measurer.close().catch(() => undefined);
    if (!this.options.keep) {
      await removeTrialDir(this.trial);
      this.forget?.();
    }
    if (this.ownsTrial) releaseTrialIdentity(this.trial);
  }
}

/** A world on `trial` whose sandbox is up; closed again (and its dir removed) if it cannot start. */
async function startWorld(trial: TrialDir, options: CreateWorldOptions, ownsTrial = true): Promise<TrialWorld> {
  const world = new BwrapWorld(trial, options, ownsTrial);
  try {
    await world.ensureHelper();
  } catch (e) {
    await world.close();
    throw e;
  }
  return world;
}

export async function createWorld(opts: CreateWorldOptions = {}): Promise<TrialWorld> {
  return startWorld(await createTrialDir(opts.parentDir ?? DEFAULT_TRIALS_DIR, opts.mounts ?? []), opts);
}

/** A new world holding a copy of `world`'s files (links copied as links), same mounts and limits. */
export async function cloneWorld(world: World, overrides: Partial<CreateWorldOptions> = {}): Promise<TrialWorld> {
  if (!(world instanceof BwrapWorld)) throw new Error("cloneWorld needs a world made by createWorld");
  const options = { ...world.options, ...overrides };
  return refreshGitIndexes(await startWorld(await copyTrialDir(world.trial, options.parentDir ?? path.dirname(world.dir)), options));
}

/**
 * A copy of `world`'s files as they are now, in a new trial dir under `parentDir` owned by its
 * own sandbox user, with nothing running on it: a checkpoint that views and clones start from.
 */
export async function checkpointWorld(world: World, parentDir?: string): Promise<TrialDir> {
  if (!(world instanceof BwrapWorld)) throw new Error("checkpointWorld needs a world made by createWorld");
  return copyTrialDir(world.trial, parentDir ?? path.dirname(world.dir));
}

/**
 * A sandbox over an existing trial dir (a checkpoint) that leaves the dir in place on close and
 * does not free its sandbox user: for questions about the files (EnvView, gate processes), the
 * hidden test (which runs on a copy) and clones. Nothing the harness asks through it writes.
 */
export function openView(trial: TrialDir, options: CreateWorldOptions): Promise<TrialWorld> {
  // Lazy: its helper starts on the first file question; a clone, a hidden test or a gate process needs none.
  return Promise.resolve(new BwrapWorld(trial, { ...options, keep: true }, false));
}

/** Removes a checkpoint made by checkpointWorld and frees its sandbox user. */
export async function discardCheckpoint(trial: TrialDir): Promise<void> {
  await removeTrialDir(trial);
  releaseTrialIdentity(trial);
}

/**
 * The same world's files seen through a second sandbox with the default profile: for a call
 * the user explicitly approved under a strict profile (escalation). Shares the trial dir;
 * closing it stops only its own helper.
 */
export async function escalatedView(world: World): Promise<TrialWorld> {
  if (!(world instanceof BwrapWorld)) throw new Error("escalatedView needs a world made by createWorld");
  return startWorld(world.trial, { ...world.options, profile: { kind: "default" }, keep: true }, false);
}

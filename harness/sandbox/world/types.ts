/**
 * The world contract (docs/architecture.md, "world"). A world is a trial directory on the host
 * whose subfolders are bound into one bubblewrap sandbox at /workspace, /home/user, /tmp and
 * the task's extra mounts. Every operation below executes inside that sandbox.
 */
import type { EnvView, FileType } from "../../../gates/types.ts";

export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
  /** Set when a world limit ended the command (limits.ts): the call failed with `limit_exceeded`. */
  limitExceeded?: LimitKind;
}

/** The world limits a call can run into. */
export type LimitKind = "memory" | "pids" | "file_size" | "disk";

/** The virtual entries of a world's git history (harness/sandbox/world/inside/git-history.ts): keys `git:<kind>:…`, never a path. */
export type GitEntryType = "git-commit" | "git-tag" | "git-ref" | "git-unmeasured" | "git-stash" | "git-stash-file";

export interface SnapshotEntry {
  type: FileType | GitEntryType;
  size: number;
  mode: number;
  /** sha256 of content for regular files. */
  hash?: string;
  /** Set when this content is the previous snapshot's content plus appended bytes: that content's hash. */
  appendOf?: string;
  /** link text for symlinks (never followed). */
  target?: string;
  /** identity used to reuse hashes between snapshots. */
  mtimeNs?: string;
  /** status-change time: a hash is reused only when ino, size, mtimeNs and ctimeNs all match. */
  ctimeNs?: string;
  ino?: number;
}

/**
 * sandbox path -> entry, for every path under the world's roots (roots themselves included), and
 * `git:…` key -> entry for the world's git history (what is reachable, docs/trial.md).
 */
export type Snapshot = Map<string, SnapshotEntry>;

/** What one snapshot cost (World.lastSnapshotStats). */
export interface SnapshotStats {
  /** Files whose content was read and hashed. */
  hashed: number;
  /** Files whose hash was carried over (same inode, size, mtime and ctime). */
  reused: number;
  /** Relative to the last snapshot: only the paths that could have changed were looked at. */
  incremental: boolean;
  /** Paths lstat'ed. */
  looked: number;
  /** Why a snapshot relative to the last one walked everything after all. */
  reason?: string;
}

/** Result of one file operation done by a tool inside the sandbox. */
export type OpResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

export interface WorldFs {
  read(path: string, offset?: number, limit?: number): Promise<OpResult<string>>;
  write(path: string, content: string): Promise<OpResult<{ bytes: number }>>;
  edit(path: string, edits: { oldText: string; newText: string }[]): Promise<OpResult<{ replaced: number }>>;
  ls(path?: string, limit?: number): Promise<OpResult<string>>;
  find(pattern: string, path?: string, limit?: number): Promise<OpResult<string>>;
  grep(
    pattern: string,
    opts: { path?: string; glob?: string; ignoreCase?: boolean; literal?: boolean; context?: number; limit?: number },
  ): Promise<OpResult<string>>;
  delete(path: string, recursive?: boolean): Promise<OpResult<{ removed: number }>>;
}

export interface WorldLimits {
  callTimeoutMs: number;
  maxOutputBytes: number;
  trialTimeoutMs: number;
  /** Address space of every process the agent, setup or hidden test starts (RLIMIT_AS). */
  memoryMb: number;
  /** Processes and threads of the world's sandbox user (RLIMIT_NPROC). */
  pids: number;
  /** Largest file a process may write (RLIMIT_FSIZE). */
  fileSizeMb: number;
  /** Disk the world's roots may take, checked after every command. */
  diskMb: number;
}

export interface World {
  readonly id: string;
  /** Host directory that holds the trial's mount sources. Never follow links inside it on the host. */
  readonly dir: string;
  /** Sandbox paths of the writable roots: /workspace, /home/user, /tmp, plus task mounts. */
  readonly roots: readonly string[];
  readonly env: EnvView;
  readonly fs: WorldFs;
  /** bash -c <command> in a fresh process group, cwd /workspace; the whole tree is killed afterwards. */
  exec(command: string, opts?: { timeoutMs?: number }): Promise<ExecResult>;
  snapshot(previous?: Snapshot): Promise<Snapshot>;
  close(): Promise<void>;
}

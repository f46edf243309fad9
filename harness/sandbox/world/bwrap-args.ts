/**
 * The bubblewrap argv for one trial (docs/architecture.md, "world").
 * Pure: everything it needs about the host comes in through `host`, so tests can check the
 * argv without touching the file system. `probeHostSystem()` fills `host` on a real machine.
 */
import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";
import { HELPER_MOUNT, HOME, SANDBOX_TMP, TESTS_MOUNT, WORKSPACE } from "../../../kernel/sandbox-paths.ts";
import type { SandboxProfile } from "../../../kernel/sandbox-profile.ts";

export const GIT_FIXED_DATE = "2025-06-01T12:00:00Z";

/**
 * git configuration every sandbox starts with (through GIT_CONFIG_COUNT, which a repository's
 * own config cannot override; `git -c` and explicit options still can). The fixed clock makes
 * every reflog entry look months old to git's real one, so a plain `git gc` would expire the
 * whole reflog, which it never does to a repository worked in this week: reflog entries are kept
 * unless expired explicitly (`git reflog expire --expire=now`).
 */
export const SANDBOX_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ["gc.reflogExpire", "never"],
  ["gc.reflogExpireUnreachable", "never"],
];

/** GIT_CONFIG_COUNT/KEY_i/VALUE_i for a list of settings. */
export function gitConfigEnv(settings: readonly (readonly [string, string])[]): Record<string, string> {
  return {
    GIT_CONFIG_COUNT: String(settings.length),
    ...Object.fromEntries(
      settings.flatMap(([k, v], i) => [
        [`GIT_CONFIG_KEY_${i}`, k],
        [`GIT_CONFIG_VALUE_${i}`, v],
      ]),
    ),
  };
}

/** Top-level system entries that are either symlinks into /usr (merged-usr) or real directories. */
export type SystemEntry = { path: string; kind: "symlink"; target: string } | { path: string; kind: "dir" };

export interface HostSystem {
  /** /bin /sbin /lib /lib64 ... as found on the host; entries absent on the host are left out. */
  entries: SystemEntry[];
  /** Secret files present on the host that get masked with /dev/null (/etc/shadow, /etc/gshadow). */
  maskedFiles: string[];
}

const MASKED_FILES = ["/etc/shadow", "/etc/gshadow"];
const SYSTEM_ENTRY_NAMES = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];

/** Looks at the host's /bin, /lib... (symlinks on merged-usr systems). Reads nothing inside a world. */
export function probeHostSystem(): HostSystem {
  const entries: SystemEntry[] = [];
  for (const p of SYSTEM_ENTRY_NAMES) {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) entries.push({ path: p, kind: "symlink", target: readlinkSync(p) });
    else if (st.isDirectory()) entries.push({ path: p, kind: "dir" });
  }
  const maskedFiles = MASKED_FILES.filter((f) => {
    try {
      lstatSync(f);
      return true;
    } catch {
      return false;
    }
  });
  return { entries, maskedFiles };
}

export interface TrialMounts {
  /** Host directories of the trial (inside the trial dir). */
  workspace: string;
  home: string;
  tmp: string;
  /** Task mounts: sandbox path -> host dir inside the trial dir. */
  extra: { sandboxPath: string; hostDir: string }[];
}

export interface BwrapOptions {
  mounts: TrialMounts;
  host: HostSystem;
  /** Host directory bound read-only at /opt/gatebench (the helper script). Omit for plain runs. */
  helperDir?: string | undefined;
  /** Extra read-only binds, e.g. the hidden tests at /tests. */
  readOnlyBinds?: { hostPath: string; sandboxPath: string }[];
  profile?: SandboxProfile;
  /** The command to run inside (argv). */
  command: string[];
  /** Bind the world's dirs read-only too (gate processes: a gate must not cause side effects). */
  readOnlyWorld?: boolean;
  /** Extra environment on top of the fixed one (e.g. the hidden test's git hardening). */
  env?: Readonly<Record<string, string>>;
  /** Folders put in front of the fixed PATH (the agent's sandbox only: task.yaml world.path). */
  pathPrefix?: readonly string[];
  /** Empty writable folders outside the world (an agent product's own state), each a fresh tmpfs. */
  tmpfs?: readonly string[];
  /** /dev read-only too (a sandbox kept for many gate processes: nothing one writes is there for the next). */
  readOnlyDev?: boolean;
}

/** The PATH every sandbox starts with. */
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

/** PATH with `prefix` in front; each entry must be a clean absolute path without ':'. */
export function sandboxPathWith(prefix: readonly string[] = []): string {
  for (const p of prefix) {
    if (!path.posix.isAbsolute(p) || path.posix.normalize(p) !== p || p.endsWith("/") || p.includes(":"))
      throw new Error(`world.path entries must be normalised absolute paths without ':', got ${JSON.stringify(p)}`);
  }
  return [...prefix, SANDBOX_PATH].join(":");
}

/** Sandbox paths a task may not mount over: the system, and the fixed roots. */
const RESERVED_PREFIXES = [
  "/usr",
  "/etc",
  "/proc",
  "/dev",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
  "/lib32",
  "/libx32",
  HELPER_MOUNT,
  TESTS_MOUNT,
  WORKSPACE,
  HOME,
  SANDBOX_TMP,
];

/** Throws when a task mount point is not a clean absolute path outside the reserved trees. */
export function checkMountPoint(p: string): void {
  if (!path.posix.isAbsolute(p) || path.posix.normalize(p) !== p || p === "/" || p.endsWith("/")) {
    throw new Error(`mount point must be a normalised absolute path, got ${JSON.stringify(p)}`);
  }
  for (const r of RESERVED_PREFIXES) {
    if (p === r || p.startsWith(r + "/") || r.startsWith(p + "/")) {
      throw new Error(`mount point ${p} overlaps reserved sandbox path ${r}`);
    }
  }
}

function isUnder(p: string, root: string): boolean {
  return p === root || p.startsWith(root + "/");
}

export function buildBwrapArgs(opts: BwrapOptions): string[] {
  const { mounts, host } = opts;
  const profile = opts.profile ?? { kind: "default" };
  const args: string[] = ["--ro-bind", "/usr", "/usr"];
  for (const e of host.entries) {
    if (e.kind === "symlink") args.push("--symlink", e.target, e.path);
    else args.push("--ro-bind", e.path, e.path);
  }
  args.push("--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev");
  const rw = opts.readOnlyWorld ? "--ro-bind" : "--bind";
  args.push(rw, mounts.workspace, WORKSPACE);
  if (profile.kind === "strict") {
    args.push("--ro-bind", mounts.home, HOME);
    for (const p of profile.writableHomePaths) {
      if (!isUnder(p, HOME) || p === HOME) throw new Error(`strict profile: writable path ${p} must lie under ${HOME}`);
      args.push(rw, path.join(mounts.home, path.posix.relative(HOME, p)), p);
    }
  } else {
    args.push(rw, mounts.home, HOME);
  }
  args.push(rw, mounts.tmp, SANDBOX_TMP);
  for (const m of mounts.extra) {
    checkMountPoint(m.sandboxPath);
    args.push(rw, m.hostDir, m.sandboxPath);
  }
  if (profile.kind === "strict") {
    for (const p of profile.maskedPaths) {
      if (!isUnder(p, HOME) || p === HOME) throw new Error(`strict profile: masked path ${p} must lie under ${HOME}`);
      // --tmpfs then --remount-ro: the secret dir shows up empty and read-only.
      if (profile.maskStyle === "unreadable") args.push("--perms", "0000");
      args.push("--tmpfs", p, "--remount-ro", p);
    }
    const files = profile.maskedFiles ?? [];
    if (files.length > 0 && !profile.maskFileSource) throw new Error("strict profile: masked files need a maskFileSource");
    const roots = [WORKSPACE, HOME, SANDBOX_TMP, ...mounts.extra.map((m) => m.sandboxPath)];
    for (const f of files) {
      if (path.posix.normalize(f) !== f || roots.includes(f) || !roots.some((r) => isUnder(f, r)))
        throw new Error(`strict profile: masked file ${f} must lie under a world root`);
      args.push("--ro-bind", profile.maskFileSource!, f);
    }
  }
  if (opts.helperDir) args.push("--ro-bind", opts.helperDir, HELPER_MOUNT);
  for (const b of opts.readOnlyBinds ?? []) args.push("--ro-bind", b.hostPath, b.sandboxPath);
  for (const t of opts.tmpfs ?? []) {
    if (!path.posix.isAbsolute(t) || path.posix.normalize(t) !== t || !isUnder(t, HELPER_MOUNT) || t === HELPER_MOUNT)
      throw new Error(`tmpfs folders must lie under ${HELPER_MOUNT}/, got ${JSON.stringify(t)}`);
    args.push("--perms", "0700", "--tmpfs", t);
  }
  args.push(
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    ...host.maskedFiles.flatMap((f) => ["--ro-bind", "/dev/null", f]),
    "--clearenv",
    "--setenv",
    "HOME",
    HOME,
    "--setenv",
    "PATH",
    sandboxPathWith(opts.pathPrefix),
    "--setenv",
    "TMPDIR",
    SANDBOX_TMP,
    "--setenv",
    "USER",
    "user",
    "--setenv",
    "LANG",
    "C.UTF-8",
    // Git writes the clock into every commit id; a fixed clock keeps worlds reproducible, so
    // two runs of the same reference give the same effects.
    "--setenv",
    "GIT_AUTHOR_DATE",
    GIT_FIXED_DATE,
    "--setenv",
    "GIT_COMMITTER_DATE",
    GIT_FIXED_DATE,
    ...Object.entries({ ...gitConfigEnv(SANDBOX_GIT_CONFIG), ...opts.env }).flatMap(([k, v]) => ["--setenv", k, v]),
    ...(opts.readOnlyDev ? ["--remount-ro", "/dev"] : []),
    "--remount-ro",
    "/",
    "--chdir",
    WORKSPACE,
    "--",
    ...opts.command,
  );
  return args;
}

/** Where the measurer sees the folder of trial dirs. */
export const MEASURED_WORLDS = "/run/gatebench/worlds";

/**
 * The measurer's sandbox: the helper in snapshot-only mode, started by the host user (root in CI)
 * in its own PID, IPC, UTS and network namespaces, with every capability dropped but
 * CAP_DAC_READ_SEARCH (it reads every file of every world, whatever its mode, and can change
 * nothing: the folder of trial dirs is bound read-only at MEASURED_WORLDS and / is read-only). No
 * user namespace: a namespace owned by root would not map the sandbox users' files, and the
 * capability would not apply to them. The agents run as other uids in other PID namespaces, so
 * they can neither see, signal, nor trace this process, nor reach its pipes. No OS profile
 * applies: masked paths are measured.
 */
export function buildMeasurerArgs(opts: {
  /** The folder of trial dirs whose worlds it measures (harness/sandbox/world/measurer.ts). */
  worldsDir: string;
  host: HostSystem;
  helperDir: string;
  command: string[];
  /**
   * false when the harness itself runs unprivileged (a developer's machine): then the sandboxes run
   * as the same user, the measurer gets a user namespace and no capability, and what keeps it out
   * of the agent's reach is its own PID namespace (the agent cannot see, signal or trace it).
   */
  privileged?: boolean;
}): string[] {
  const { host } = opts;
  const args: string[] = ["--ro-bind", "/usr", "/usr"];
  for (const e of host.entries) {
    if (e.kind === "symlink") args.push("--symlink", e.target, e.path);
    else args.push("--ro-bind", e.path, e.path);
  }
  args.push("--proc", "/proc", "--dev", "/dev");
  args.push("--ro-bind", opts.worldsDir, MEASURED_WORLDS);
  args.push("--ro-bind", opts.helperDir, HELPER_MOUNT);
  const privileged = opts.privileged ?? true;
  args.push(
    ...(privileged ? [] : ["--unshare-user"]),
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-net",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    ...(privileged ? ["--cap-add", "CAP_DAC_READ_SEARCH"] : []),
    "--clearenv",
    "--setenv",
    "PATH",
    "/usr/bin:/bin",
    "--setenv",
    "LANG",
    "C.UTF-8",
    "--remount-ro",
    "/",
    "--chdir",
    "/",
    "--",
    ...opts.command,
  );
  return args;
}

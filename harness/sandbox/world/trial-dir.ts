/**
 * The host side of a world: the trial directory whose subfolders become the sandbox's
 * writable roots. Host code only creates it, copies it (links copied as links) and removes
 * it (fs.rm and rm -rf never follow links); it never reads anything the agent made inside,
 * except what a copy reads (deep-copy.ts, never through a link).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { OWNER_MARKER, ownerMarkerText } from "../process/ownership.ts";
import { checkMountPoint, type TrialMounts } from "./bwrap-args.ts";
import { reportLeftOnDisk } from "../process/remove-tree.ts";
import { copyRoots, emptyInCopier, removeInCopier, type CopyResult } from "./copier.ts";
import { copyTreeDeep } from "./deep-copy.ts";
import { allocateIdentity, chownTree, releaseIdentity, type SandboxIdentity } from "./identity.ts";
import { InputError } from "../../../kernel/errors.ts";
import { copyWithin, type Within } from "../files/contained.ts";

export const DEFAULT_TRIALS_DIR = path.join(os.tmpdir(), "gatebench-trials");

export interface TrialDir {
  id: string;
  dir: string;
  mounts: TrialMounts;
  /**
   * Host user that owns the world's roots and runs its sandboxes. The trial dir itself stays
   * root's (0755), so the sandbox user cannot rename or replace its own roots.
   */
  identity?: SandboxIdentity | undefined;
}

function newTrialId(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
}

/** The folder of a trial dir that holds its task mounts (and the folders between them and it). */
const mountsDir = (dir: string): string => path.join(dir, "mounts");

/** Host dir for a task mount: /srv/app2 -> <dir>/mounts/srv/app2. */
function mountHostDir(dir: string, sandboxPath: string): string {
  return path.join(mountsDir(dir), sandboxPath);
}

function layout(id: string, dir: string, mountPoints: readonly string[]): TrialDir {
  return {
    id,
    dir,
    mounts: {
      workspace: path.join(dir, "workspace"),
      home: path.join(dir, "home"),
      tmp: path.join(dir, "tmp"),
      extra: mountPoints.map((p) => ({ sandboxPath: p, hostDir: mountHostDir(dir, p) })),
    },
  };
}

function checkMountSet(mountPoints: readonly string[]): void {
  for (const p of mountPoints) checkMountPoint(p);
  for (const a of mountPoints) {
    for (const b of mountPoints) {
      if (a !== b && (a.startsWith(b + "/") || b.startsWith(a + "/"))) throw new Error(`task mounts ${a} and ${b} overlap`);
    }
  }
  if (new Set(mountPoints).size !== mountPoints.length) throw new Error("task mounts contain a duplicate");
}

/** The world's writable roots (what the sandbox user owns). */
export function rootDirs(t: TrialDir): string[] {
  return [t.mounts.workspace, t.mounts.home, t.mounts.tmp, ...t.mounts.extra.map((m) => m.hostDir)];
}

/**
 * The sandbox user must be able to reach the trial dir (bwrap resolves the bind sources as that
 * user). A parent we may fix (owned by us, e.g. a mkdtemp dir) gets search permission for others
 * (0711: nothing can be listed or written); any other closed ancestor is an error.
 */
async function ensureReachable(parentDir: string): Promise<void> {
  const st = await fs.stat(parentDir);
  if ((st.mode & 0o001) === 0 && st.uid === process.getuid?.()) await fs.chmod(parentDir, (st.mode & 0o7777) | 0o011);
  let cur = path.dirname(path.resolve(parentDir));
  for (;;) {
    const a = await fs.stat(cur);
    if ((a.mode & 0o001) === 0) {
      const mode = (a.mode & 0o7777).toString(8);
      throw new Error(`trial parent ${parentDir}: ${cur} is not searchable by others (mode ${mode}); the sandbox user cannot reach it`);
    }
    const up = path.dirname(cur);
    if (up === cur) return;
    cur = up;
  }
}

export async function createTrialDir(
  parentDir: string,
  mountPoints: readonly string[],
  identity: SandboxIdentity | undefined = allocateIdentity(),
  /** False: the caller gives the roots to the sandbox user itself (after filling them). */
  chownRoots = true,
): Promise<TrialDir> {
  checkMountSet(mountPoints);
  const id = newTrialId();
  const dir = path.join(parentDir, id);
  await fs.mkdir(parentDir, { recursive: true });
  if (identity) await ensureReachable(parentDir);
  await fs.mkdir(dir, { mode: 0o755 });
  await fs.chmod(dir, 0o755);
  // Who made it: a later run removes the dir when this process is gone (harness/sandbox/process/ownership.ts).
  await fs.writeFile(path.join(dir, OWNER_MARKER), ownerMarkerText());
  const t: TrialDir = { ...layout(id, dir, mountPoints), identity };
  await fs.mkdir(t.mounts.workspace);
  await fs.mkdir(t.mounts.home);
  await fs.mkdir(t.mounts.tmp);
  await fs.chmod(t.mounts.tmp, 0o1777);
  for (const m of t.mounts.extra) await fs.mkdir(m.hostDir, { recursive: true });
  // mounts/<a>/<b>: the intermediate dirs stay root's; only the mount dirs themselves are the user's.
  if (chownRoots) await chownTree(rootDirs(t), identity);
  return t;
}

/**
 * A root-owned, world-readable folder of the trial dir for files the harness hands to one sandbox
 * (setup script, hidden tests, hook files): out of the sandbox user's reach to change.
 */
export async function stageDir(t: TrialDir, name: string): Promise<string> {
  const d = path.join(t.dir, "staged", `${name}-${randomBytes(4).toString("hex")}`);
  await fs.mkdir(d, { recursive: true, mode: 0o755 });
  await fs.chmod(path.join(t.dir, "staged"), 0o755);
  await fs.chmod(d, 0o755);
  return d;
}

/**
 * Copies a host file or folder into a staged folder, readable (not writable) by the sandbox user.
 * `keepLinks`: links inside are copied as links, resolved inside the sandbox where the host's
 * private files are not (a hook's folder, which a configuration brings along). With `within` (a
 * task's files), links are followed only inside that folder and only regular files and folders
 * are copied (files/contained.ts): a refusal is the InputError it throws. Otherwise links are
 * copied as their targets.
 */
export async function stageCopy(t: TrialDir, hostPath: string, name: string, how: { keepLinks?: boolean; within?: Within } = {}): Promise<string> {
  const d = await stageDir(t, name);
  const dst = path.join(d, path.basename(hostPath));
  try {
    if (how.within) copyWithin(hostPath, dst, how.within);
    // In-process: a host file or folder the user named for the harness (a hook's file or folder).
    else
      await fs.cp(
        hostPath,
        dst,
        how.keepLinks ? { recursive: true, verbatimSymlinks: true, errorOnExist: true } : { recursive: true, dereference: true, errorOnExist: true },
      );
    await openUp(dst);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new Error(`cannot stage ${hostPath}: ${(e as Error).message}`);
  }
  return dst;
}

/** u+rw, go+r, go-w on files (x kept where the owner has it), 0755 on folders. */
async function openUp(p: string): Promise<void> {
  const st = await fs.lstat(p);
  if (st.isDirectory()) {
    await fs.chmod(p, 0o755);
    for (const n of await fs.readdir(p)) await openUp(path.join(p, n));
  } else if (st.isFile()) {
    await fs.chmod(p, st.mode & 0o100 ? 0o755 : 0o644);
  }
}

/** New trial dir holding a copy of `src`, owned by its own sandbox user. */
export async function copyTrialDir(src: TrialDir, parentDir: string): Promise<TrialDir> {
  const mountPoints = src.mounts.extra.map((m) => m.sandboxPath);
  const dst = await createTrialDir(parentDir, mountPoints, allocateIdentity(), false);
  // Both dirs have layout()'s shape: each child of `src.dir` copied into `dst.dir` lands on its counterpart.
  const from = [src.mounts.workspace, src.mounts.home, src.mounts.tmp, ...(mountPoints.length > 0 ? [mountsDir(src.dir)] : [])];
  const owner = dst.identity ? `${dst.identity.uid}:${dst.identity.gid}` : "";
  let r: CopyResult;
  try {
    r = await copyRoots({ owner, from, into: dst.dir, roots: rootDirs(dst) });
    // cp names files by their whole path: a tree deeper than PATH_MAX is copied by descriptor instead.
    if (r.exitCode !== 0 && /File name too long/.test(r.output)) r = await copyDeep(src, dst);
  } catch (e) {
    r = { exitCode: -1, output: (e as Error).message };
  }
  if (r.exitCode !== 0) {
    await removeTrialDir(dst);
    releaseTrialIdentity(dst);
    throw new Error(`copying the world ${src.dir} failed (${r.exitCode}): ${r.output.trim()}`);
  }
  return dst;
}

/** The copy cp could not make, made again root by root by deep-copy.ts over emptied roots. */
async function copyDeep(src: TrialDir, dst: TrialDir): Promise<CopyResult> {
  const to = rootDirs(dst);
  try {
    for (const [i, from] of rootDirs(src).entries()) {
      await emptyFolder(to[i]!);
      await copyTreeDeep(from, to[i]!, dst.identity);
    }
    return { exitCode: 0, output: "" };
  } catch (e) {
    return { exitCode: -1, output: `copy by descriptor: ${(e as Error).message}` };
  }
}

/** Removes everything inside `dir`, keeping the folder itself (names of any bytes, any depth). */
async function emptyFolder(dir: string): Promise<void> {
  const r = await emptyInCopier(dir);
  if (r.exitCode !== 0) throw new Error(`cannot empty ${dir} (${r.exitCode}): ${r.output.trim()}`);
}

/**
 * rm -rf of a host tree, never throwing: fs.rm first (it removes links, never their targets),
 * then GNU rm in the copier for what fs.rm cannot (a tree deeper than PATH_MAX, a folder of
 * mode 000 when the harness is not root). What is still left is reported once and skipped.
 */
export async function removeTree(dir: string): Promise<boolean> {
  try {
    await fs.rm(dir, { recursive: true, force: true });
    return true;
  } catch {
    // below
  }
  let r: CopyResult;
  try {
    r = await removeInCopier(dir);
  } catch (e) {
    r = { exitCode: -1, output: (e as Error).message };
  }
  if (r.exitCode === 0) return true;
  reportLeftOnDisk(dir, r.output.trim() || `exit ${r.exitCode}`);
  return false;
}

/** Removes the trial dir (never throws: what cannot be removed is reported once). */
export async function removeTrialDir(t: TrialDir): Promise<void> {
  await removeTree(t.dir);
}

/** The trial's sandbox user is free again once nothing of its world runs. */
export function releaseTrialIdentity(t: TrialDir): void {
  releaseIdentity(t.identity);
}

/**
 * The host user a world's sandboxes run as. Every sandbox that runs task or agent code (setup,
 * agent helper, gate processes, hidden test) runs as an unprivileged host uid/gid with no passwd
 * entry, inside an unprivileged user namespace that maps only that id: a root-only host file
 * stays unreadable, whatever the sandbox does. Each world gets its own id from a high range, so
 * per-user limits (RLIMIT_NPROC) are per world and two worlds never share an owner.
 */
import { execa } from "execa";

export interface SandboxIdentity {
  uid: number;
  gid: number;
}

/** First id of the range; far above system and login users, below 2^31. */
export const SANDBOX_ID_BASE = 2_000_000_000;
export const SANDBOX_ID_RANGE = 1_000_000;

const inUse = new Set<number>();
let next = (process.pid * 7919) % SANDBOX_ID_RANGE;

/** True when this process may start processes as another user (it runs as root). */
export function canSwitchUser(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/**
 * A fresh id for a world; give it back with releaseIdentity. Without root (a developer's
 * machine) the sandboxes run as the invoking user, which is already unprivileged.
 */
export function allocateIdentity(): SandboxIdentity | undefined {
  if (!canSwitchUser()) return undefined;
  for (let i = 0; i < SANDBOX_ID_RANGE; i++) {
    const id = SANDBOX_ID_BASE + (next++ % SANDBOX_ID_RANGE);
    if (inUse.has(id)) continue;
    inUse.add(id);
    return { uid: id, gid: id };
  }
  throw new Error("no free sandbox user id");
}

export function releaseIdentity(id: SandboxIdentity | undefined): void {
  if (id) inUse.delete(id.uid);
}

/** chown -R without following any link (-P, -h): links are re-owned, never their targets. */
export async function chownTree(paths: readonly string[], id: SandboxIdentity | undefined): Promise<void> {
  if (!id || paths.length === 0) return;
  const r = await execa("/bin/chown", ["-R", "-P", "-h", `${id.uid}:${id.gid}`, "--", ...paths], { reject: false, stdin: "ignore" });
  if (r.exitCode !== 0) throw new Error(`chown of the world to ${id.uid} failed (${r.exitCode}): ${String(r.stderr).trim().slice(-400)}`);
}

/** execa/child_process options that start a process as `id` (nothing when sandboxes run as the caller). */
export function spawnAs(id: SandboxIdentity | undefined): { uid?: number; gid?: number } {
  return id ? { uid: id.uid, gid: id.gid } : {};
}

/**
 * The host side of a world: the trial directory whose subfolders become the sandbox's
 * writable roots. Host code only creates it, copies it (links copied as links) and removes
 * it (fs.rm never follows links); it never reads or stats anything the agent made inside.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { OWNER_MARKER, ownerMarkerText } from "../process/ownership.ts";
import { checkMountPoint, type TrialMounts } from "./bwrap-args.ts";

export const DEFAULT_TRIALS_DIR = path.join(os.tmpdir(), "gatebench-trials");

export interface TrialDir {
  id: string;
  dir: string;
  mounts: TrialMounts;
}

function newTrialId(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
}

/** Host dir for a task mount: /srv/app2 -> <dir>/mounts/srv/app2. */
function mountHostDir(dir: string, sandboxPath: string): string {
  return path.join(dir, "mounts", sandboxPath);
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

export async function createTrialDir(parentDir: string, mountPoints: readonly string[]): Promise<TrialDir> {
  checkMountSet(mountPoints);
  const id = newTrialId();
  const dir = path.join(parentDir, id);
  await fs.mkdir(parentDir, { recursive: true });
  await fs.mkdir(dir);
  // Who made it: a later run removes the dir when this process is gone (harness/process/ownership.ts).
  await fs.writeFile(path.join(dir, OWNER_MARKER), ownerMarkerText());
  const t = layout(id, dir, mountPoints);
  await fs.mkdir(t.mounts.workspace);
  await fs.mkdir(t.mounts.home);
  await fs.mkdir(t.mounts.tmp);
  await fs.chmod(t.mounts.tmp, 0o1777);
  for (const m of t.mounts.extra) await fs.mkdir(m.hostDir, { recursive: true });
  return t;
}

/** New trial dir holding a copy of `src` (cp -a: links stay links, nothing is dereferenced). */
export async function copyTrialDir(src: TrialDir, parentDir: string): Promise<TrialDir> {
  const mountPoints = src.mounts.extra.map((m) => m.sandboxPath);
  const dst = await createTrialDir(parentDir, mountPoints);
  const pairs: [string, string][] = [
    [src.mounts.workspace, dst.mounts.workspace],
    [src.mounts.home, dst.mounts.home],
    [src.mounts.tmp, dst.mounts.tmp],
    ...src.mounts.extra.map((m, i): [string, string] => [m.hostDir, dst.mounts.extra[i]!.hostDir]),
  ];
  for (const [from, to] of pairs) await cpNoDeref(from, to);
  return dst;
}

function cpNoDeref(from: string, to: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // `from/.` copies the contents (dotfiles included) into the existing `to`.
    const child = spawn("/bin/cp", ["-a", "--no-dereference", "--", `${from}/.`, to], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`cp -a ${from} failed (${code}): ${stderr.trim()}`))));
  });
}

/** rm -rf of the trial dir; fs.rm removes symlinks themselves, never their targets. */
export async function removeTrialDir(t: TrialDir): Promise<void> {
  await fs.rm(t.dir, { recursive: true, force: true });
}

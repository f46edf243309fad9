/**
 * A world copy for trees `cp -a` cannot copy: cp names every file by its whole path, and the
 * kernel refuses paths longer than PATH_MAX (an agent that builds 30 nested folders of 200-byte
 * names makes one). This copy walks by opened folders (kernel/fs-names.ts onPath), with names as
 * bytes, never following a link, and keeps what `cp -a` keeps and a snapshot sees: type,
 * content, mode, link targets, hard links within the copy, and modification times. Host code:
 * it only ever lstat's, reads regular files opened without following links, and creates.
 *
 * Extended attributes are not copied (Node has no call for them; snapshots do not see them
 * either, docs/trial.md). Sockets and device files cannot be copied by it: the copy fails.
 */
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { decodeName, onPath } from "../../../kernel/fs-names.ts";
import type { SandboxIdentity } from "./identity.ts";

const run = promisify(execFile);

/** Copies the folder `src` to `dst` (filling `dst` when it is a folder already), every entry owned by `owner` when given. */
export async function copyTreeDeep(src: string, dst: string, owner?: SandboxIdentity): Promise<void> {
  await copyEntry(src, dst, owner, new Map());
}

async function copyEntry(src: string, dst: string, owner: SandboxIdentity | undefined, links: Map<string, string>): Promise<void> {
  const st = await onPath(src, (p) => fs.lstat(p, { bigint: true }));
  const uid = owner ? owner.uid : Number(st.uid);
  const gid = owner ? owner.gid : Number(st.gid);
  const mode = Number(st.mode & 0o7777n);
  if (st.isDirectory()) {
    const existing = await onPath(dst, (p) => fs.lstat(p)).catch(() => undefined);
    if (!existing) await onPath(dst, (p) => fs.mkdir(p, { mode: 0o700 }));
    else if (!existing.isDirectory()) throw Object.assign(new Error(`${dst} exists and is not a folder`), { code: "EEXIST" });
    // The owner may not be able to list or enter it until its own mode is set, after its entries.
    const names = (await onPath(src, (p) => fs.readdir(p, { encoding: "buffer" }))).map(decodeName).sort();
    for (const n of names) await copyEntry(path.posix.join(src, n), path.posix.join(dst, n), owner, links);
    await onPath(dst, (p) => fs.lchown(p, uid, gid));
    await onPath(dst, (p) => fs.chmod(p, mode));
    await onPath(dst, (p) => fs.lutimes(p, timeOf(st.atimeNs), timeOf(st.mtimeNs)));
    return;
  }
  const inode = `${st.dev}:${st.ino}`;
  const first = st.nlink > 1n ? links.get(inode) : undefined;
  if (first !== undefined) {
    await onPath(first, (a) => onPath(dst, (b) => fs.link(a, b)));
    return;
  }
  if (st.isSymbolicLink()) {
    const target = await onPath(src, (p) => fs.readlink(p, { encoding: "buffer" }));
    await onPath(dst, (p) => fs.symlink(target, p));
  } else if (st.isFile()) {
    await copyFileNoFollow(src, dst);
  } else if (st.isFIFO()) {
    await makeFifo(dst);
  } else {
    throw Object.assign(new Error(`${src}: sockets and device files are not copied`), { code: "ENOTSUP" });
  }
  if (st.nlink > 1n) links.set(inode, dst);
  await onPath(dst, (p) => fs.lchown(p, uid, gid));
  if (!st.isSymbolicLink()) await onPath(dst, (p) => fs.chmod(p, mode));
  await onPath(dst, (p) => fs.lutimes(p, timeOf(st.atimeNs), timeOf(st.mtimeNs)));
}

/** The content of the regular file `src` into the new file `dst`, `src` opened without following a link. */
async function copyFileNoFollow(src: string, dst: string): Promise<void> {
  const from = await onPath(src, (p) => fs.open(p, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK));
  try {
    const to = await onPath(dst, (p) => fs.open(p, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
    try {
      const buf = Buffer.allocUnsafe(1 << 16);
      for (;;) {
        const { bytesRead } = await from.read(buf, 0, buf.length, null);
        if (bytesRead === 0) break;
        await to.write(buf, 0, bytesRead);
      }
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}

let fifos = 0;

/**
 * No Node call makes a FIFO: mkfifo makes one under a plain name in `dst`'s folder, reached
 * through this process's descriptor of it (any depth, any bytes in the folder's path), and it is
 * renamed to `dst`.
 */
async function makeFifo(dst: string): Promise<void> {
  const dir = await onPath(path.posix.dirname(dst), (p) => fs.open(p, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW));
  try {
    const name = `.gatebench-fifo-${process.pid}-${++fifos}`;
    await run("/usr/bin/mkfifo", ["-m", "600", "--", `/proc/${process.pid}/fd/${dir.fd}/${name}`]);
    await onPath(dst, (p) => fs.rename(`/proc/self/fd/${dir.fd}/${name}`, p));
  } finally {
    await dir.close();
  }
}

/** Seconds as utimes takes them, from nanoseconds. */
function timeOf(ns: bigint): number {
  return Number(ns / 1000n) / 1e6;
}

/**
 * Removing a host tree that an agent may have shaped, without ever throwing: a world deeper than
 * PATH_MAX (fs.rm names every file by its whole path and fails with ENAMETOOLONG), a folder of
 * mode 000 when the harness does not run as root. GNU rm walks by descriptor and removes links,
 * never their targets. What cannot be removed is reported once and left.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { displayName } from "../../../kernel/fs-names.ts";
import { sayErr } from "../../text/redact/terminal.ts";

const reported = new Set<string>();

/** Says once per tree that `dir` is left on disk, and why. */
export function reportLeftOnDisk(dir: string, why: string): void {
  if (reported.has(dir)) return;
  reported.add(dir);
  sayErr(`gatebench: could not remove ${displayName(dir)} (${why.replace(/\s+/g, " ").slice(-300)}); it is left on disk\n`);
}

/** rm -rf of `dir`, synchronously: fs.rm, then chmod u+rwX and GNU rm for what fs.rm could not. False (reported) when something is left. */
export function removeTreeSync(dir: string): boolean {
  try {
    rmSync(dir, { recursive: true, force: true });
    return true;
  } catch {
    // below
  }
  spawnSync("/bin/chmod", ["-R", "u+rwX", "--", dir], { stdio: "ignore" });
  const r = spawnSync("/bin/rm", ["-rf", "--one-file-system", "--", dir], { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  if (r.status === 0) return true;
  reportLeftOnDisk(dir, r.stderr?.trim() || `exit ${r.status ?? r.signal}`);
  return false;
}

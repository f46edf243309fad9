/**
 * Resolves the strict OS profile against a trial's home dir right before its sandbox starts.
 * Writable binds take their SOURCE from the host, so a planted symlink there would bind a host
 * path writable: every component is checked with lstat (never followed) and must be a real
 * directory. Masks are only applied to directories that exist (bwrap cannot create a mount
 * point in the read-only home). Runs only while no process of this world is alive.
 */
import { chmodSync, existsSync, lchownSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { HOME, SANDBOX_TMP, WORKSPACE } from "../../../kernel/sandbox-paths.ts";
import { DEFAULT_MASKED_SECRETS, type SandboxProfile, type StrictProfile } from "../../../kernel/sandbox-profile.ts";
import type { TrialMounts } from "./bwrap-args.ts";

export type ProfileOption = SandboxProfile | "default" | "strict";

export function normaliseProfile(p: ProfileOption | undefined): SandboxProfile {
  if (p === undefined || p === "default") return { kind: "default" };
  if (p === "strict") return { kind: "strict", writableHomePaths: [], maskedPaths: DEFAULT_MASKED_SECRETS };
  return p;
}

/** "dir" when every component below `hostHome` is a real directory, "missing" when one is absent. */
function realDirChain(hostHome: string, sandboxPath: string): "dir" | "missing" | "not-dir" {
  const rel = path.posix.relative(HOME, sandboxPath);
  let cur = hostHome;
  for (const part of rel.split("/")) {
    cur = path.join(cur, part);
    try {
      const st = lstatSync(cur);
      if (!st.isDirectory()) return "not-dir";
    } catch {
      return "missing";
    }
  }
  return "dir";
}

/** The trial a profile is resolved for; needed only when the profile masks files. */
export interface ProfileTrial {
  dir: string;
  mounts: TrialMounts;
  /** Owner of the world's files: a writable dir created here is given to it. */
  identity?: { uid: number; gid: number } | undefined;
}

/** More masked files than this fails the world: masks are bwrap arguments. */
const MAX_MASKED_FILES = 500;
/** Directories visited while looking for masked names. */
const MAX_WALK_DIRS = 20_000;

/** Sandbox root -> host dir of the trial. */
function worldRoots(mounts: TrialMounts): [string, string][] {
  return [
    [WORKSPACE, mounts.workspace],
    [HOME, mounts.home],
    [SANDBOX_TMP, mounts.tmp],
    ...mounts.extra.map((m): [string, string] => [m.sandboxPath, m.hostDir]),
  ];
}

/** True when `sandboxPath` is a regular file reached through real directories only (nothing followed). */
function isRealFile(mounts: TrialMounts, sandboxPath: string): boolean {
  const root = worldRoots(mounts).find(([r]) => sandboxPath.startsWith(r + "/"));
  if (!root) return false;
  const parts = path.posix.relative(root[0], sandboxPath).split("/");
  let cur = root[1];
  for (const [i, part] of parts.entries()) {
    cur = path.join(cur, part);
    try {
      const st = lstatSync(cur);
      if (i < parts.length - 1 ? !st.isDirectory() : !st.isFile()) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** Regular files whose name matches, found by a walk that never follows a link. */
function findMaskedNames(mounts: TrialMounts, names: string[]): string[] {
  const match = picomatch(names, { dot: true });
  const found: string[] = [];
  let visited = 0;
  for (const [root, hostRoot] of worldRoots(mounts)) {
    const stack: [string, string][] = [[root, hostRoot]];
    while (stack.length > 0) {
      const [dir, hostDir] = stack.pop()!;
      if (++visited > MAX_WALK_DIRS) throw new Error(`strict profile: more than ${MAX_WALK_DIRS} directories to search for masked files`);
      let entries;
      try {
        entries = readdirSync(hostDir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const child: [string, string] = [path.posix.join(dir, e.name), path.join(hostDir, e.name)];
        if (e.isDirectory()) stack.push(child);
        else if (e.isFile() && match(e.name)) found.push(child[0]);
      }
    }
  }
  return found;
}

/** The host file bound over masked files: empty, and mode 000 when they must be unreadable. */
function maskSource(trialDir: string, style: "hidden" | "unreadable"): string {
  const dir = path.join(trialDir, "masks");
  const file = path.join(dir, style === "unreadable" ? "unreadable" : "empty");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, "");
  }
  chmodSync(file, style === "unreadable" ? 0o000 : 0o444);
  return file;
}

/** Masked files of a strict profile (explicit paths that are files, plus names found in the world). */
function resolveMaskedFiles(
  profile: StrictProfile,
  maskedDirs: string[],
  trial: ProfileTrial | undefined,
): Pick<StrictProfile, "maskedFiles" | "maskFileSource"> {
  const explicit = profile.maskedFiles ?? [];
  const names = profile.maskedNames ?? [];
  if (explicit.length === 0 && names.length === 0) return {};
  if (!trial) throw new Error("strict profile: masking files needs the trial's mounts");
  // A file inside a masked dir is hidden already, and has no mount point inside the empty tmpfs.
  const insideMaskedDir = (f: string) => maskedDirs.some((d) => f.startsWith(d + "/"));
  const candidates = [...explicit.filter((f) => isRealFile(trial.mounts, f)), ...(names.length > 0 ? findMaskedNames(trial.mounts, names) : [])];
  const files = [...new Set(candidates.filter((f) => !insideMaskedDir(f)))].sort();
  if (files.length === 0) return {};
  if (files.length > MAX_MASKED_FILES) throw new Error(`strict profile: ${files.length} files to mask (at most ${MAX_MASKED_FILES})`);
  return { maskedFiles: files, maskFileSource: maskSource(trial.dir, profile.maskStyle ?? "hidden") };
}

export function resolveProfile(profile: SandboxProfile, hostHome: string, trial?: ProfileTrial): SandboxProfile {
  if (profile.kind !== "strict") return profile;
  const writable: string[] = [];
  for (const p of profile.writableHomePaths) {
    const state = realDirChain(hostHome, p);
    if (state === "not-dir") throw new Error(`strict profile: ${p} is not a real directory in the world; refusing to bind it`);
    if (state === "missing") {
      // Parents were checked component by component above up to the missing one.
      const target = path.join(hostHome, path.posix.relative(HOME, p));
      const first = mkdirSync(target, { recursive: true });
      if (first && trial?.identity) {
        // The new dirs belong to the sandbox user, as if the world had made them.
        for (let d = target; ; d = path.dirname(d)) {
          lchownSync(d, trial.identity.uid, trial.identity.gid);
          if (d === first || d.length <= first.length) break;
        }
      }
      if (realDirChain(hostHome, p) !== "dir") throw new Error(`strict profile: could not create ${p}`);
    }
    writable.push(p);
  }
  const masked = profile.maskedPaths.filter((p) => realDirChain(hostHome, p) === "dir");
  const resolved: StrictProfile = {
    kind: "strict",
    writableHomePaths: writable,
    maskedPaths: masked,
    ...(profile.maskStyle ? { maskStyle: profile.maskStyle } : {}),
    ...resolveMaskedFiles(profile, masked, trial),
  };
  return resolved;
}

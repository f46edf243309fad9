/**
 * Resolves the strict OS profile against a trial's home dir right before its sandbox starts.
 * Writable binds take their SOURCE from the host, so a planted symlink there would bind a host
 * path writable: every component is checked with lstat (never followed) and must be a real
 * directory. Masks are only applied to directories that exist (bwrap cannot create a mount
 * point in the read-only home). Runs only while no process of this world is alive.
 */
import { lstatSync, mkdirSync } from "node:fs";
import path from "node:path";
import { DEFAULT_MASKED_SECRETS, type SandboxProfile, type StrictProfile } from "./bwrap-args.ts";
import { HOME } from "./types.ts";

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

export function resolveProfile(profile: SandboxProfile, hostHome: string): SandboxProfile {
  if (profile.kind !== "strict") return profile;
  const writable: string[] = [];
  for (const p of profile.writableHomePaths) {
    const state = realDirChain(hostHome, p);
    if (state === "not-dir") throw new Error(`strict profile: ${p} is not a real directory in the world; refusing to bind it`);
    if (state === "missing") {
      // Parents were checked component by component above up to the missing one.
      mkdirSync(path.join(hostHome, path.posix.relative(HOME, p)), { recursive: true });
      if (realDirChain(hostHome, p) !== "dir") throw new Error(`strict profile: could not create ${p}`);
    }
    writable.push(p);
  }
  const masked = profile.maskedPaths.filter((p) => realDirChain(hostHome, p) === "dir");
  const resolved: StrictProfile = { kind: "strict", writableHomePaths: writable, maskedPaths: masked };
  return resolved;
}

/**
 * Resource limits of a world. Every process a sandbox starts for the agent, the setup script or
 * the hidden test runs under rlimits set by prlimit: address space (memory), processes and
 * threads of the world's own sandbox user (pids; each world has its own uid, so the count is
 * per world), and the largest file (file size). Disk use of the world's roots is measured after
 * every command. (cgroups v2 would account memory and processes exactly, but needs a writable,
 * delegated unified hierarchy with the memory and pids controllers, which hosts with a hybrid
 * cgroup v1 layout, such as the one these limits were built on, do not offer; rlimits work
 * everywhere without privileges.)
 */
import type { LimitKind } from "./types.ts";

export interface ResourceLimits {
  memoryMb: number;
  pids: number;
  fileSizeMb: number;
  diskMb: number;
}

export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = { memoryMb: 2048, pids: 512, fileSizeMb: 1024, diskMb: 2048 };

const MB = 1024 * 1024;

/** prlimit prefix for a command run inside a sandbox (prlimit sets the limits on itself, then execs). */
export function prlimitArgv(l: ResourceLimits, command: readonly string[]): string[] {
  return ["/usr/bin/prlimit", `--as=${l.memoryMb * MB}`, `--nproc=${l.pids}`, `--fsize=${l.fileSizeMb * MB}`, "--core=0", "--", ...command];
}

/** What the in-sandbox helper needs to apply the same limits to the agent's commands. */
export function helperLimitsArg(l: ResourceLimits): string {
  return `--limits=${JSON.stringify({ memoryMb: l.memoryMb, pids: l.pids, fileSizeMb: l.fileSizeMb })}`;
}

export function limitMessage(kind: LimitKind, l: ResourceLimits): string {
  switch (kind) {
    case "memory":
      return `the command ran out of the world's memory limit (${l.memoryMb} MB)`;
    case "pids":
      return `the command hit the world's process limit (${l.pids})`;
    case "file_size":
      return `the command wrote a file beyond the world's file size limit (${l.fileSizeMb} MB)`;
    case "disk":
      return `the world uses more disk than its limit (${l.diskMb} MB)`;
  }
}

/**
 * The OS profile a trial's tools run under, as a gate configuration asks for it. `default` is the
 * ordinary bubblewrap world; `strict` makes home read-only except a few paths and masks secrets.
 * Built here without touching the file system; the world resolves it against a trial's
 * directories right before its sandbox starts (harness/sandbox/world/strict-profile.ts).
 */
import path from "node:path";
import { HOME, SANDBOX_TMP, WORKSPACE } from "./sandbox-paths.ts";

/**
 * The stricter profile: the home directory is read-only except the listed sandbox paths, and
 * secret directories are hidden behind an empty read-only tmpfs. Paths listed here must be under
 * /home/user; writable ones must already exist in the world.
 */
export interface StrictProfile {
  kind: "strict";
  writableHomePaths: string[];
  maskedPaths: string[];
  /**
   * How masks look. "hidden" (default): an empty directory. "unreadable": mode 000, so reading
   * fails with EACCES (the sandbox has no capabilities, so even root is refused).
   */
  maskStyle?: "hidden" | "unreadable";
  /** Regular files (sandbox paths under a world root) covered by `maskFileSource`. */
  maskedFiles?: string[];
  /** Basename globs (".env", ".env.*"); the world resolves them into `maskedFiles` after setup. */
  maskedNames?: string[];
  /** Host file bound read-only over every masked file (empty; mode 000 when "unreadable"). */
  maskFileSource?: string;
  /**
   * A call the user explicitly approved runs outside the strict profile (in the default sandbox),
   * like an on-request escalation; unapproved calls stay confined. Read by the trial, not the world.
   */
  escalateApproved?: boolean;
}

export type SandboxProfile = { kind: "default" } | StrictProfile;

export const DEFAULT_MASKED_SECRETS = [`${HOME}/.ssh`, `${HOME}/.aws`, `${HOME}/.gnupg`, `${HOME}/.config/gcloud`];

export interface StrictProfileOptions {
  /** Home paths that stay writable: "~/.cache" or "/home/user/.cache". */
  writable?: readonly string[];
  /**
   * What the agent cannot read: paths ("~/.ssh", "/workspace/secrets.json"; a directory under
   * home, or a file under any root) or file-name globs (".env", ".env.*"). Default: DEFAULT_MASKED_SECRETS.
   */
  masked?: readonly string[];
  maskStyle?: "hidden" | "unreadable";
  escalateApproved?: boolean;
}

function expandHome(p: string): string {
  const abs = p.startsWith("~/") ? `${HOME}/${p.slice(2)}` : p;
  if (!path.posix.isAbsolute(abs) || path.posix.normalize(abs) !== abs || abs.endsWith("/"))
    throw new Error(`${JSON.stringify(p)} is not a normalised absolute path or ~/path`);
  return abs;
}

/**
 * The strict profile a gate configuration asks for. A masked path is offered both as a directory
 * mask (if under home) and as a file mask; the world keeps it where its type fits.
 */
export function buildStrictProfile(opts: StrictProfileOptions = {}): StrictProfile {
  const writable = (opts.writable ?? []).map(expandHome);
  for (const w of writable) if (w === HOME || !w.startsWith(HOME + "/")) throw new Error(`writable path ${w} must lie under ${HOME}`);
  const entries = opts.masked ?? DEFAULT_MASKED_SECRETS;
  const paths = entries.filter((e) => e.includes("/")).map(expandHome);
  const names = entries.filter((e) => !e.includes("/"));
  for (const p of paths) if ([HOME, WORKSPACE, SANDBOX_TMP].includes(p)) throw new Error(`cannot mask a whole root (${p})`);
  return {
    kind: "strict",
    writableHomePaths: writable,
    maskedPaths: paths.filter((p) => p.startsWith(HOME + "/")),
    ...(opts.maskStyle ? { maskStyle: opts.maskStyle } : {}),
    ...(paths.length > 0 ? { maskedFiles: paths } : {}),
    ...(names.length > 0 ? { maskedNames: names } : {}),
    ...(opts.escalateApproved ? { escalateApproved: true } : {}),
  };
}

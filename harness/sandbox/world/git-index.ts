/**
 * A copied world must look to the agent exactly as setup left it. `cp -a` keeps contents and
 * mtimes but gives every file a new inode and change time, and git's index stores both: in a
 * fresh copy every tracked file looks "possibly modified" until something refreshes the index
 * (`git status` does, as a side effect), so commands that check a clean work tree first
 * (`git reset --keep`, `git checkout`, `git stash`) fail where they would succeed after a
 * fresh setup. After a clone, the stat data of every git index in the world is refreshed
 * (`git update-index -q --refresh`), inside a one-shot sandbox on the world's own dirs; the
 * host never looks inside the world; a world with no repository costs one `find` in its
 * running sandbox. Repositories are found without following links;
 * fsmonitor and hooks are switched off for the refresh. A failed refresh fails the clone.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ExecResult } from "./types.ts";

/** What the refresh needs of a world (structural, so world.ts can call this without a cycle). */
export interface RefreshableWorld {
  readonly roots: readonly string[];
  exec(command: string, opts?: { timeoutMs?: number }): Promise<ExecResult>;
  runScript(hostScriptPath: string, opts?: { timeoutMs?: number }): Promise<ExecResult>;
  close(): Promise<void>;
}

export const GIT_INDEX_REFRESH_TIMEOUT_MS = 60_000;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** find(1) of every `.git` (folder or gitfile) under `roots`, links not followed, then `action`. */
export function findRepositories(roots: readonly string[], action: string): string {
  return `find ${roots.map(quote).join(" ")} -name .git \\( -type d -o -type f \\) -prune ${action} 2>/dev/null`;
}

/** The bash script run in the sandbox: refresh the index of every repository under `roots`. */
export function refreshScript(roots: readonly string[]): string {
  return [
    "set -u",
    `${findRepositories(roots, "-print0")} |`,
    "  while IFS= read -r -d '' g; do",
    '    git -C "${g%/.git}" -c core.fsmonitor=false -c core.hooksPath=/dev/null update-index -q --refresh >/dev/null 2>&1 || true',
    "  done",
    "exit 0",
    "",
  ].join("\n");
}

/** Refreshes every git index of `world`; on failure closes the world and throws. Returns the world. */
export async function refreshGitIndexes<W extends RefreshableWorld>(world: W): Promise<W> {
  let dir: string | undefined;
  try {
    // A cheap look first (in the running sandbox): most worlds hold no repository at all. Only
    // a clean "found nothing" (exit 0, or 1 for an unreadable folder) skips the refresh.
    const probe = await world.exec(findRepositories(world.roots, "-print -quit"), { timeoutMs: GIT_INDEX_REFRESH_TIMEOUT_MS });
    if ((probe.exitCode === 0 || probe.exitCode === 1) && !probe.timedOut && probe.stdout.trim() === "") return world;
    dir = await mkdtemp(path.join(tmpdir(), "gatebench-git-index-"));
    const script = path.join(dir, "refresh.sh");
    await writeFile(script, refreshScript(world.roots));
    const r = await world.runScript(script, { timeoutMs: GIT_INDEX_REFRESH_TIMEOUT_MS });
    if (r.exitCode !== 0)
      throw new Error(`refreshing the git indexes of the copied world failed (exit ${r.exitCode}${r.timedOut ? ", timed out" : ""}): ${r.stderr.slice(-400)}`);
    return world;
  } catch (e) {
    await world.close().catch(() => undefined);
    throw e;
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

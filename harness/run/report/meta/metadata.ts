/**
 * Run metadata for summary.json `meta`: the git state of the checkout (through simple-git),
 * gatebench's version, and content hashes of every task and gate configuration used, so two
 * runs can tell whether they measured the same thing. The matrix fingerprint identifies the
 * whole (unsharded) matrix: every shard of one matrix carries the same fingerprint.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { simpleGit } from "simple-git";

export const REPO_ROOT = new URL("../../../../", import.meta.url).pathname;

export interface GitState {
  commit: string;
  branch: string;
  dirty: boolean;
}

export interface RunMeta {
  git: GitState | null;
  gatebench_version: string;
  task_hashes: Record<string, string>;
  gate_hashes: Record<string, string>;
  fingerprint: string;
  planned_trials: number;
  shard?: string;
  shard_trials?: number;
}

/** Commit, branch and dirty flag of the repository at `dir`; null outside a git checkout. */
export async function gitState(dir = REPO_ROOT): Promise<GitState | null> {
  try {
    const git = simpleGit({ baseDir: dir });
    if (!(await git.checkIsRepo())) return null;
    const [commit, branch, status] = await Promise.all([git.revparse(["HEAD"]), git.revparse(["--abbrev-ref", "HEAD"]), git.status()]);
    return { commit: commit.trim(), branch: branch.trim(), dirty: !status.isClean() };
  } catch {
    return null;
  }
}

export function packageVersion(root = REPO_ROOT): string {
  try {
    return String((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown }).version ?? "unknown");
  } catch {
    return "unknown";
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** sha256 over every file of a folder: relative path and content, in path order. */
export function hashTree(dir: string): string {
  const h = createHash("sha256");
  for (const file of filesUnder(dir)) {
    h.update(relative(dir, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return h.digest("hex").slice(0, 16);
}

export function hashText(...parts: string[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex").slice(0, 16);
}

/** A gate configuration's hash: its file's content when it has one, else its command line spelling. */
export function hashGateConfig(gate: { name: string; source: string }, root = REPO_ROOT): string {
  const file = gate.source.endsWith(".yaml") ? join(root, gate.source) : (/^pi-extension:(.+)$/.exec(gate.name)?.[1] ?? "");
  return file && existsSync(file) && statSync(file).isFile() ? hashText(gate.name, readFileSync(file, "utf8")) : hashText(gate.name);
}

export interface MatrixIdentity {
  tasks: readonly { task: { id: string }; dir: string }[];
  gates: readonly { name: string; source: string }[];
  /** Every trial id of the whole matrix, before sharding. */
  plannedTrialIds: readonly string[];
}

export function matrixHashes(m: MatrixIdentity): Pick<RunMeta, "task_hashes" | "gate_hashes" | "fingerprint" | "planned_trials"> {
  const task_hashes = Object.fromEntries(m.tasks.map((t) => [t.task.id, hashTree(t.dir)]));
  const gate_hashes = Object.fromEntries(m.gates.map((g) => [g.name, hashGateConfig(g)]));
  const ids = [...m.plannedTrialIds].sort();
  const fingerprint = hashText(JSON.stringify(task_hashes), JSON.stringify(gate_hashes), ...ids);
  return { task_hashes, gate_hashes, fingerprint, planned_trials: ids.length };
}

export async function collectRunMeta(m: MatrixIdentity & { shard?: { index: number; count: number }; shardTrials?: number }): Promise<RunMeta> {
  return {
    git: await gitState(),
    gatebench_version: packageVersion(),
    ...matrixHashes(m),
    ...(m.shard ? { shard: `${m.shard.index}/${m.shard.count}` } : {}),
    ...(m.shard && m.shardTrials !== undefined ? { shard_trials: m.shardTrials } : {}),
  };
}

/**
 * When each task entered the suite and when each gate's decisions last changed, read from git,
 * for the report's "unseen by the gate" split (harness/run/report/statistics/unseen.ts).
 *
 * History is read along the main line (first parents), a merge counting as the change it brought in.
 *
 * - A task entered with the first commit that holds a file of its folder; a folder with no
 *   committed file is "uncommitted" (newer than every commit).
 * - A gate's decisions are made of its configuration file, every source file its layers' code
 *   imports (the module graph the fingerprint hashes) and the files its layers run or load (a
 *   hook script, an extension); its last change is the last commit that touched one of them.
 *   Any of them modified or untracked: "uncommitted". A layer that applies a published
 *   package's rules unchanged (`published` in its definition, or a hook or extension that lives
 *   in an installed package) does not count; a configuration made only of such layers is
 *   "published": every task is unseen.
 * - Each file is looked up in the git repository that holds it (a tasks folder or a hook may
 *   live in another repository). No repository, a shallow clone or no git at all: "unknown"
 *   with the reason, never a guess.
 *
 * Times are committer times in seconds, comparable across repositories.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { GateConfig } from "../../../../gates/config.ts";
import { GATE_MODULES, gateLayer } from "../../../../gates/registry.ts";
import { DEPENDENCIES_DIR } from "../../../../kernel/package-root.ts";
import { moduleGraph, packageVersion } from "../../matrix/fingerprint.ts";

/** When a task entered the suite: seconds since the epoch of the first commit holding its folder. */
export type TaskEntry = number | "uncommitted" | null;

export type GateProvenance =
  /** Every layer applies a published package's rules unchanged: no task of this suite was seen. */
  | { basis: "published"; packages: string[] }
  /** The last commit touching a file the gate's decisions are made of. */
  | { basis: "git"; changed: number; commit: string }
  /** A file the gate's decisions are made of differs from its last commit: it has seen every task. */
  | { basis: "uncommitted" }
  /** No git history reaches a file the gate's decisions are made of. */
  | { basis: "unknown"; reason: string };

export interface Provenance {
  tasks: Record<string, TaskEntry>;
  gates: Record<string, GateProvenance>;
}

/** What git knows of one repository: each tracked path's first and last commit, and what differs from HEAD. */
interface RepoHistory {
  root: string;
  /** Relative path -> first and last commit time (seconds) and the last commit's id. */
  files: Map<string, { first: number; last: number; commit: string }>;
  /** Relative paths modified, added or untracked in the work tree. */
  dirty: Set<string>;
}

type RepoLookup = RepoHistory | { unknown: string };

const git = (cwd: string, args: string[]): string =>
  execFileSync("git", ["-C", cwd, "-c", "core.quotePath=false", ...args], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  });

/** Reads a repository's history once: `git log --name-only` from HEAD, and `git status`. */
export function readRepoHistory(root: string): RepoHistory {
  const files = new Map<string, { first: number; last: number; commit: string }>();
  let commit = "";
  let time = 0;
  // The main line's history (first parents, a merge as the change it brought in), newest first: the
  // first time a path is met is its last change, the last time its first. A file that came in by a
  // merge, or was made in one, entered the suite with that merge.
  for (const token of git(root, ["log", "-z", "-m", "--first-parent", "--name-only", "--no-renames", "--format=%x01%H %ct"]).split("\0")) {
    if (token.startsWith("\u0001")) {
      const [id, ct] = token.slice(1).split(" ");
      commit = id ?? "";
      time = Number(ct);
      continue;
    }
    const file = token.replace(/^\n/, "");
    if (!file) continue;
    const seen = files.get(file);
    if (seen) seen.first = time;
    else files.set(file, { first: time, last: time, commit });
  }
  const dirty = new Set<string>();
  const status = git(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]).split("\0");
  for (let i = 0; i < status.length; i++) {
    const entry = status[i]!;
    if (entry.length < 4) continue;
    dirty.add(entry.slice(3));
    if (entry[0] === "R" || entry[0] === "C") i++; // a rename's source follows as its own entry
  }
  return { root, files, dirty };
}

/** Finds and reads the repositories that hold files, each once. */
export class Repos {
  private readonly byRoot = new Map<string, RepoLookup>();
  private readonly rootOf = new Map<string, string | null>();

  /** The repository holding `file` (a file or a folder), or why there is none. */
  lookup(file: string): RepoLookup {
    const dir = existsSync(file) && statSync(file).isDirectory() ? file : path.dirname(file);
    let root = this.rootOf.get(dir);
    if (root === undefined) {
      try {
        root = realpathSync(git(dir, ["rev-parse", "--show-toplevel"]).trim());
      } catch {
        root = null;
      }
      this.rootOf.set(dir, root);
    }
    if (root === null) return { unknown: "a file it is made of is in no git repository" };
    let repo = this.byRoot.get(root);
    if (!repo) {
      try {
        repo =
          git(root, ["rev-parse", "--is-shallow-repository"]).trim() === "true"
            ? { unknown: "a shallow clone (fetch its whole history)" }
            : readRepoHistory(root);
      } catch {
        repo = { unknown: "git could not read its repository" };
      }
      this.byRoot.set(root, repo);
    }
    return repo;
  }
}

const relativeIn = (repo: RepoHistory, file: string): string => path.relative(repo.root, realpathSync(file)).split(path.sep).join("/");

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** When a task folder entered its repository: its first commit's time, "uncommitted", or null. */
export function taskEntry(dir: string, repos: Repos): TaskEntry {
  const repo = repos.lookup(dir);
  if ("unknown" in repo) return null;
  let first = Number.POSITIVE_INFINITY;
  for (const f of filesUnder(dir)) {
    const h = repo.files.get(relativeIn(repo, f));
    if (h && h.first < first) first = h.first;
  }
  return Number.isFinite(first) ? first : "uncommitted";
}

/** The installed package a file belongs to (`name@version`), or undefined outside the dependencies folder. */
function installedPackage(file: string): string | undefined {
  const rel = path.relative(DEPENDENCIES_DIR, file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  const name = parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  return packageVersion(name);
}

/** The module graph's files of each layer kind's code, each kind bundled once per process. */
const kindFiles = new Map<string, string[]>();
function filesOfKind(kind: string): string[] {
  let files = kindFiles.get(kind);
  if (!files) kindFiles.set(kind, (files = moduleGraph(GATE_MODULES[kind] ?? []).files));
  return files;
}

/** The files a gate's decisions are made of, and the published packages whose rules its layers apply unchanged. */
export function gateDecisionFiles(gate: GateConfig): { files: string[]; published: string[]; own: number } {
  const files = new Set<string>(gate.file ? [gate.file] : []);
  const published = new Set<string>();
  let own = 0;
  const kinds = [...gate.layerKinds, ...(gate.projectTrust ? ["project-trust"] : [])];
  for (const [i, kind] of kinds.entries()) {
    const definition = gateLayer(kind);
    const sources = gate.layers[i]?.sources?.files ?? [];
    const packaged = sources.map(installedPackage);
    if (definition?.published) {
      published.add(packageVersion(definition.published.package) + (definition.published.file ? ` ${definition.published.file}` : ""));
      continue;
    }
    if (sources.length > 0 && packaged.every((p) => p !== undefined)) {
      for (const p of packaged) published.add(p!);
      continue;
    }
    own++;
    for (const f of filesOfKind(kind)) files.add(f);
    for (const f of sources) {
      files.add(f);
      if (/\.(?:[cm]?[jt]sx?)$/.test(f)) {
        try {
          for (const m of moduleGraph([f]).files) files.add(m);
        } catch {
          // not bundleable: the file itself
        }
      }
    }
  }
  const inPackages = (f: string) => installedPackage(f) !== undefined;
  return { files: [...files].filter((f) => !inPackages(f)).sort(), published: [...published].sort(), own };
}

/** When a gate's decisions last changed. */
export function gateProvenance(gate: GateConfig, repos: Repos): GateProvenance {
  const { files, published, own } = gateDecisionFiles(gate);
  if (own === 0 && published.length > 0) return { basis: "published", packages: published };
  let changed = Number.NEGATIVE_INFINITY;
  let commit = "";
  for (const f of files) {
    const repo = repos.lookup(f);
    if ("unknown" in repo) return { basis: "unknown", reason: repo.unknown };
    if (!existsSync(f)) return { basis: "unknown", reason: "a file it is made of does not exist" };
    const rel = relativeIn(repo, f);
    if (repo.dirty.has(rel)) return { basis: "uncommitted" };
    const h = repo.files.get(rel);
    if (!h) return { basis: "uncommitted" };
    if (h.last > changed) {
      changed = h.last;
      commit = h.commit;
    }
  }
  // A configuration with no file and no layer of its own (none, an OS profile alone) changes with its file only.
  if (!Number.isFinite(changed)) return { basis: "unknown", reason: "no file of its own to date" };
  return { basis: "git", changed, commit };
}

/** The run's provenance: every task's entry and every gate's last change (the baseline gate has no decisions to date). */
export function collectProvenance(tasks: readonly { task: { id: string }; dir: string }[], gates: readonly GateConfig[]): Provenance {
  const repos = new Repos();
  return {
    tasks: Object.fromEntries(tasks.map((t) => [t.task.id, taskEntry(t.dir, repos)])),
    gates: Object.fromEntries(
      gates.map((g) => {
        try {
          return [g.name, gateProvenance(g, repos)];
        } catch (e) {
          return [g.name, { basis: "unknown", reason: "its files could not be read" } satisfies GateProvenance];
        }
      }),
    ),
  };
}

/**
 * Can the sandbox users reach what the sandboxes bind from the host in place? When the harness
 * runs as root, every sandbox runs as an unprivileged uid of its own (identity.ts) with no
 * passwd entry and no supplementary group: host permissions apply to it as to "others". A task's
 * files never need that (setup.sh, the hidden tests and hook files are staged as root-owned,
 * world-readable copies in the trial dir, trial-dir.ts stageCopy), but these are bound as they
 * are, and bwrap resolves a bind's source as the sandbox user:
 *
 * - the in-sandbox helper (harness/sandbox/world/inside), which every world starts;
 * - the repository's node_modules, for gate processes (hooks shipped as npm packages);
 * - the Pi extension process's own code (gates/pi-extension);
 * - the folder trial dirs are made in ($TMPDIR/gatebench-trials) and $TMPDIR itself, where the
 *   extension process's socket folder lives.
 *
 * A gatebench checkout under a closed folder (root's home, mode 0700; a `mktemp -d` folder)
 * failed every trial with `bwrap: Can't find source path ...: Permission denied`.
 * checkSandboxAccess finds that before a run and names the path, the user and the fix.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SERVING_DIR } from "../../../gates/pi-extension/sandboxed.ts";
import { InputError } from "../../../kernel/errors.ts";
import { canSwitchUser, SANDBOX_ID_BASE, SANDBOX_ID_RANGE } from "./identity.ts";
import { DEFAULT_TRIALS_DIR } from "./trial-dir.ts";
import { helperBundleDir } from "./helper-bundle.ts";
import { REPO_NODE_MODULES } from "./world.ts";

/** A host path a sandbox binds in place, and how much of it the sandbox user needs. */
export interface BoundPath {
  path: string;
  /**
   * `tree`: the folder and everything in it is read; `folder`: the folder itself is read;
   * `pass`: the folder is passed through (folders are made in it); `reach`: only the folders
   * above it are passed through (the harness makes it, and opens it up itself).
   */
  need: "tree" | "folder" | "pass" | "reach";
  why: string;
}

export function boundInPlace(trialsDir = DEFAULT_TRIALS_DIR): BoundPath[] {
  return [
    { path: helperBundleDir(), need: "tree", why: "the in-sandbox helper and measurer every world runs" },
    { path: SERVING_DIR, need: "tree", why: "the Pi extension process's code" },
    { path: REPO_NODE_MODULES, need: "folder", why: "node_modules, read by gate processes" },
    { path: trialsDir, need: "reach", why: "the folder trial dirs are made in" },
    { path: os.tmpdir(), need: "pass", why: "the temporary folder (extension sockets)" },
  ];
}

export interface AccessProblem {
  /** The bound path that cannot be used. */
  bound: BoundPath;
  /** The folder or file that stops the sandbox user, its mode and owner. */
  blocker: string;
  mode: number;
  uid: number;
  /** What it lacks for others: `x` (search) on a folder above, `r`/`rx` on the path itself. */
  lacks: string;
}

function mode(p: string): { mode: number; uid: number; dir: boolean } | undefined {
  try {
    const s = statSync(p);
    return { mode: s.mode & 0o7777, uid: s.uid, dir: s.isDirectory() };
  } catch {
    return undefined;
  }
}

/** Every folder on the way to `b` that "others" cannot pass, and the first thing in it they cannot read. */
function blockers(b: BoundPath, real: string): Omit<AccessProblem, "bound">[] {
  // Every folder above the path must be searchable by others; a path that does not exist yet
  // (the trials folder, created on first use) is checked from its first existing ancestor.
  const ancestors: string[] = [];
  for (let d = path.dirname(real); ; d = path.dirname(d)) {
    ancestors.unshift(d);
    if (d === path.dirname(d)) break;
  }
  const closed: Omit<AccessProblem, "bound">[] = [];
  for (const a of ancestors) {
    const m = mode(a);
    if (m && (m.mode & 0o001) === 0) closed.push({ blocker: a, mode: m.mode, uid: m.uid, lacks: "x" });
  }
  if (b.need === "reach") return closed;
  if (b.need === "pass") {
    const m = mode(real);
    return m && (m.mode & 0o001) === 0 ? [...closed, { blocker: real, mode: m.mode, uid: m.uid, lacks: "x" }] : closed;
  }
  const walk = (p: string): Omit<AccessProblem, "bound"> | undefined => {
    const m = mode(p);
    if (!m) return undefined;
    const lacks = m.dir ? `${m.mode & 0o004 ? "" : "r"}${m.mode & 0o001 ? "" : "x"}` : m.mode & 0o004 ? "" : "r";
    if (lacks) return { blocker: p, mode: m.mode, uid: m.uid, lacks };
    if (!m.dir || b.need === "folder") return undefined;
    for (const n of readdirSync(p).sort()) {
      const child = path.join(p, n);
      if (lstatSync(child).isSymbolicLink()) continue;
      const found = walk(child);
      if (found) return found;
    }
    return undefined;
  };
  const inner = walk(real);
  return inner ? [...closed, inner] : closed;
}

/** What stops the sandbox users on the paths bound in place (nothing when sandboxes run as the caller). */
export function sandboxAccessProblems(bound: readonly BoundPath[] = boundInPlace(), switching = canSwitchUser()): AccessProblem[] {
  if (!switching) return [];
  const out: AccessProblem[] = [];
  for (const b of bound) {
    // bwrap follows links: the path as written and the path it resolves to must both be passable
    let real = b.path;
    try {
      real = realpathSync(b.path);
    } catch {}
    const found = [...blockers(b, b.path), ...(real !== b.path ? blockers(b, real) : [])];
    for (const f of found) if (!out.some((o) => o.bound === b && o.blocker === f.blocker)) out.push({ bound: b, ...f });
  }
  return out;
}

const SANDBOX_USERS = `the sandbox users (unprivileged uids ${SANDBOX_ID_BASE}-${SANDBOX_ID_BASE + SANDBOX_ID_RANGE - 1}, one per world, no passwd entry, so only the "others" permission bits apply)`;

const octal = (m: number) => m.toString(8).padStart(3, "0");

/** One sentence per blocking folder or file: what it lacks, which bound paths it stops, the command that fixes it. */
function explain(problems: readonly AccessProblem[]): string {
  const byBlocker = new Map<string, AccessProblem[]>();
  for (const p of problems) byBlocker.set(p.blocker, [...(byBlocker.get(p.blocker) ?? []), p]);
  return [...byBlocker.values()]
    .map((ps) => {
      const p = ps[0]!;
      const owner = p.uid === 0 ? "root" : `uid ${p.uid}`;
      const what = `${p.blocker} (mode ${octal(p.mode)}, owner ${owner}) is not ${p.lacks === "x" ? "searchable" : "readable"} by others`;
      const bound = ps.map((x) => `${x.bound.path} (${x.bound.why})`).join(", ");
      const chmod =
        p.lacks === "x"
          ? `chmod o+x ${p.blocker}`
          : ps.some((x) => x.bound.need === "tree")
            ? `chmod -R o+rX ${p.bound.path}`
            : `chmod o+${p.lacks} ${p.blocker}`;
      return `${what}, and the sandboxes bind ${bound}; run \`${chmod}\``;
    })
    .join("; ");
}

/**
 * Bad input (exit 2) when a path bound in place is out of the sandbox users' reach: which path,
 * which user, and the fix. Run before any world is made (eval, validate, explain).
 */
export function checkSandboxAccess(bound?: readonly BoundPath[], switching?: boolean): void {
  const problems = sandboxAccessProblems(bound, switching);
  if (problems.length === 0) return;
  throw new InputError(
    "sandbox access",
    problems[0]!.bound.path,
    `a path ${SANDBOX_USERS} can reach: ${explain(problems)} (or move gatebench, or set TMPDIR, to a folder others can pass through)`,
  );
}

/**
 * What made a trial's record (docs/trial.md, "Fingerprints"): content hashes of every input, so
 * a record is only ever reused (`--resume`, the result store) for exactly the trial that would
 * produce it again. Each part is the first 16 hex digits of a sha256:
 *
 * - task: task.yaml, setup.sh and tests/ of the task folder (the world and the goal);
 * - agent: the driver and what it plays (the reference's or persona's steps, a model's id);
 * - gate: the configuration (its file, its resolved OS profile) and, for every layer, every
 *   source file its code imports (the module graph from esbuild's metafile), the versions of
 *   the npm packages it imports, and the files and packages it runs or loads (a hook script, a
 *   Pi extension with everything that imports, an npm hook's package version);
 * - approver: the simulated user's name, its settings and its seed rule;
 * - harness: every file under harness/ and kernel/, the gate stack's shared modules, the
 *   lockfile, the Node version, bubblewrap's version, the OS release and the kind of filesystem
 *   the trial folders are made on (tmpfs and ext4 give other file sizes, listings and so token
 *   counts: a trial stored on one is not served on the other);
 * - identity: task id, agent label, gate name, approver, attempt (the record's own fields).
 *
 * `trial` hashes them all. What is not seen: host programs other than node and bwrap changing
 * under the same OS release (run with --no-store after a system upgrade), and files a gate's
 * code reads at run time without importing them (none of the built-in gates does).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statfsSync, statSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import type { GateConfig } from "../../../gates/config.ts";
import { GATE_MODULES } from "../../../gates/registry.ts";
import { stableJson } from "../../../kernel/digest.ts";
import { DEPENDENCIES_DIR, PACKAGE_ROOT } from "../../../kernel/package-root.ts";
import { agentIdentity } from "../../trial/agent/drivers/registry.ts";
import { approverSettings } from "../../trial/approvers/index.ts";
import type { LoadedTask } from "../../model/task/load.ts";
import type { TrialSpec } from "../../trial/trial-spec.ts";
import type { TrialFingerprint } from "../../model/record/record.ts";
import { DEFAULT_TRIALS_DIR } from "../../sandbox/world/trial-dir.ts";

export const REPO_ROOT = PACKAGE_ROOT;

/** The parts a fingerprint is made of, in the order a changed one is named. */
export const FINGERPRINT_PARTS = ["harness", "task", "agent", "gate", "approver"] as const;

const short = (h: ReturnType<typeof createHash>) => h.digest("hex").slice(0, 16);

function hashValue(v: unknown): string {
  return short(createHash("sha256").update(stableJson(v)));
}

function filesUnder(dir: string, keep: (f: string) => boolean = () => true): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && keep(p)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** sha256 of files by their path relative to the repository (or absolute outside it) and their content. */
export function hashFiles(files: readonly string[]): string {
  const h = createHash("sha256");
  for (const f of [...new Set(files)].sort()) {
    const rel = f.startsWith(`${REPO_ROOT}/`) ? path.relative(REPO_ROOT, f) : f;
    h.update(rel).update("\0");
    try {
      h.update(readFileSync(f));
    } catch {
      h.update("(missing)");
    }
    h.update("\0");
  }
  return short(h);
}

/** The version of an installed npm package (`name@version`, or `name@missing`). */
export function packageVersion(name: string): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(DEPENDENCIES_DIR, name, "package.json"), "utf8")) as { version?: string };
    return `${name}@${pkg.version ?? "unknown"}`;
  } catch {
    return `${name}@missing`;
  }
}

/** An import specifier's package name (`@scope/name/sub` -> `@scope/name`), or undefined for a Node built-in. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith("node:") || spec.startsWith(".") || spec.startsWith("/")) return undefined;
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  return existsSync(path.join(DEPENDENCIES_DIR, name)) ? name : undefined;
}

const JS_SOURCE = /\.(?:[cm]?[jt]sx?)$/;

/** The files a JavaScript or TypeScript program imports (itself included) and the packages it imports, from esbuild's metafile. */
export function moduleGraph(entries: readonly string[]): { files: string[]; packages: string[] } {
  const r = buildSync({
    entryPoints: [...entries],
    bundle: true,
    write: false,
    metafile: true,
    outdir: "out",
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  const files = Object.keys(r.metafile.inputs).map((f) => path.resolve(f));
  const packages = new Set<string>();
  for (const out of Object.values(r.metafile.outputs)) {
    for (const imp of out.imports) {
      const pkg = imp.external ? packageOf(imp.path) : undefined;
      if (pkg) packages.add(pkg);
    }
  }
  return { files: files.sort(), packages: [...packages].sort() };
}

/** The lockfile: package-lock.json in a checkout, npm-shrinkwrap.json in an installed package (npm pack ships that one). */
function lockfile(): string {
  const lock = path.join(REPO_ROOT, "package-lock.json");
  const shrinkwrap = path.join(REPO_ROOT, "npm-shrinkwrap.json");
  return existsSync(lock) || !existsSync(shrinkwrap) ? lock : shrinkwrap;
}

/**
 * The kind of filesystem `dir` (or its nearest existing parent) is on, by its magic number
 * (0xef53 ext2/3/4, 0x1021994 tmpfs, 0x58465342 xfs, 0x9123683e btrfs, 0x794c7630 overlayfs…).
 */
export function filesystemKind(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      return `0x${statfsSync(d).type.toString(16)}`;
    } catch {
      if (d === path.dirname(d)) return "unknown";
    }
  }
}

/** What the whole harness is: its code, the gate stack's shared modules, the lockfile, and the system that runs the sandboxes. */
function harnessFingerprint(): string {
  const code = [
    ...filesUnder(path.join(REPO_ROOT, "harness")),
    ...filesUnder(path.join(REPO_ROOT, "kernel")),
    ...["types.ts", "stack.ts", "config.ts"].map((f) => path.join(REPO_ROOT, "gates", f)),
    lockfile(),
  ];
  const bwrap = spawnSync("bwrap", ["--version"], { encoding: "utf8" });
  let osRelease = "";
  try {
    osRelease = readFileSync("/etc/os-release", "utf8");
  } catch {
    // no os-release: nothing to add
  }
  return hashValue({
    code: hashFiles(code),
    node: process.version,
    bwrap: (bwrap.stdout ?? "").trim(),
    os: osRelease,
    trialsFilesystem: filesystemKind(DEFAULT_TRIALS_DIR),
  });
}

/** The world and the goal: task.yaml, setup.sh, tests/. */
function taskFingerprint(task: LoadedTask): string {
  return hashFiles([path.join(task.dir, "task.yaml"), path.join(task.dir, "setup.sh"), ...filesUnder(path.join(task.dir, "tests"))]);
}

/** A configuration, the code of its layers and what they run. */
function gateFingerprint(gate: GateConfig): string {
  const kinds = [...gate.layerKinds, ...(gate.projectTrust ? ["project-trust"] : [])];
  const code = kinds.map((k) => {
    const entries = GATE_MODULES[k];
    if (!entries) return { kind: k, code: "(unknown layer)" };
    const graph = moduleGraph(entries);
    return { kind: k, code: hashFiles(graph.files), packages: graph.packages.map(packageVersion) };
  });
  const runs = gate.layers.map((layer) => {
    const files = layer.sources?.files ?? [];
    const programs = files.map((f) => {
      if (!JS_SOURCE.test(f)) return hashFiles([f]);
      try {
        const graph = moduleGraph([f]);
        return { code: hashFiles(graph.files), packages: graph.packages.map(packageVersion) };
      } catch {
        return hashFiles([f]); // not bundleable: its own bytes
      }
    });
    return { programs, packages: (layer.sources?.packages ?? []).map(packageVersion) };
  });
  // a configuration file (built-in or anywhere) by its content, else the entry as spelled (claude-hook:<command>)
  const config = gate.file ? hashFiles([gate.file]) : gate.spec;
  return hashValue({
    name: gate.name,
    config,
    integrity: gate.integrity,
    projectTrust: gate.projectTrust ?? null,
    sandbox: gate.sandbox,
    code,
    runs,
  });
}

/** Computes trial fingerprints, each distinct part once per process (or per instance). */
export class Fingerprinter {
  private harnessPart: string | undefined;
  private readonly tasks = new Map<string, string>();
  private readonly gates = new Map<GateConfig, string>();

  harness(): string {
    this.harnessPart ??= harnessFingerprint();
    return this.harnessPart;
  }

  task(task: LoadedTask): string {
    let t = this.tasks.get(task.dir);
    if (!t) this.tasks.set(task.dir, (t = taskFingerprint(task)));
    return t;
  }

  gate(gate: GateConfig): string {
    let g = this.gates.get(gate);
    if (!g) this.gates.set(gate, (g = gateFingerprint(gate)));
    return g;
  }

  of(spec: Pick<TrialSpec, "task" | "agent" | "gate" | "approver" | "attempt">, label: string): TrialFingerprint {
    const parts = {
      harness: this.harness(),
      task: this.task(spec.task),
      agent: hashValue(agentIdentity(spec.agent, spec.task)),
      gate: this.gate(spec.gate),
      approver: hashValue({ name: spec.approver, settings: spec.approver === "-" ? null : approverSettings([spec.approver]) }),
    };
    const identity = { task: spec.task.task.id, agent: label, gate: spec.gate.name, approver: spec.approver, attempt: spec.attempt };
    return { trial: hashValue({ ...parts, identity }), ...parts };
  }
}

/** The parts in which two fingerprints differ, in FINGERPRINT_PARTS order; ["record"] when the old one is missing. */
export function changedParts(was: Partial<TrialFingerprint> | undefined, now: TrialFingerprint): string[] {
  if (!was?.trial) return ["record"];
  const parts = FINGERPRINT_PARTS.filter((p) => was[p] !== now[p]);
  return parts.length > 0 || was.trial === now.trial ? parts : ["identity"];
}

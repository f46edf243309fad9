/**
 * What made a trial's record (docs/trial.md, "Fingerprints"): content hashes of every input, so
 * a record is only ever reused (`--resume`, the result store) for exactly the trial that would
 * produce it again. Each part is the first 16 hex digits of a sha256:
 *
 * - task: task.yaml, setup.sh and tests/ of the task folder (the world and the goal);
 * - agent: the driver and what it plays (the reference's or persona's steps, a model's id);
 * - gate: the configuration (its file, its resolved OS profile) and, for every layer, every
 *   source file its code imports (the module graph from esbuild's metafile), the versions of
 *   the npm packages it imports, and the files and packages it runs or loads, wherever they
 *   live: a hook's program and script (a bare name as the PATH finds it, one under /usr or
 *   /etc), a JavaScript or TypeScript one (a hook script, a Pi extension) with every file it
 *   imports and every package as found from the importing file (gatebench's own by version, any
 *   other by its files and those of its dependencies) and its package's manifests and lockfile,
 *   any other with the files beside it in the folder bound with it; an npm hook's package version;
 * - approver: the simulated user's name, its settings and its seed rule;
 * - harness: the code a trial runs (trialCodeFiles: the module graph from TRIAL_ENTRIES with the
 *   gate layers' own modules left to the gate part, and every file under harness/ and kernel/
 *   read or run by path, outside the reports and the apps), the lockfile, the Node version,
 *   bubblewrap's version, the OS release and the kind of filesystem the trial folders
 *   are made on (tmpfs and ext4 give other file sizes, listings and so token counts: a trial stored
 *   on one is not served on the other). Report, CLI and app code is not in it: a change
 *   there renders views from stored records and runs no trial again;
 * - identity: task id, agent label, gate name, approver, attempt (the record's own fields).
 *
 * `trial` hashes them all. What is not seen: host programs other than node, bwrap and those a
 * hook names changing under the same OS release (run with --no-store after a system upgrade),
 * what a program that is not JavaScript loads from a subfolder of its folder or from outside it
 * (a Python package of the system), and files a gate's code reads at run time without importing them (none of the
 * built-in gates does).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync, statfsSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { buildSync } from "esbuild";
import type { GateConfig } from "../../../gates/config.ts";
import { bundleRootOf, JS_SOURCE, PACKAGE_MANIFESTS } from "../../../gates/host-files.ts";
import { piAliases } from "../../../gates/pi-extension/load-extension.ts";
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

/** sha256 of files by their path relative to the repository (`root`) (or absolute outside it) and their content. */
export function hashFiles(files: readonly string[], root: string = REPO_ROOT): string {
  const h = createHash("sha256");
  for (const f of [...new Set(files)].sort()) {
    const rel = f.startsWith(`${root}/`) ? path.relative(root, f) : f;
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

/** esbuild's metafile of a bundle of `entries` (nothing written; npm packages left external): what each file imports. */
function metafileOf(entries: readonly string[]) {
  return buildSync({
    entryPoints: [...entries],
    bundle: true,
    write: false,
    metafile: true,
    outdir: "out",
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  }).metafile;
}

/**
 * The files a JavaScript or TypeScript program imports (itself included) and the packages it
 * imports, from esbuild's metafile: static imports, `require` calls and dynamic imports of a
 * literal path. `stopAt` names modules whose imports are not followed and which are not listed
 * themselves (the gate layers' modules, which the gate part hashes for the trials that load them).
 */
export function moduleGraph(entries: readonly string[], options: { stopAt?: ReadonlySet<string> } = {}): { files: string[]; packages: string[] } {
  const metafile = metafileOf(entries);
  const inputs = new Map(Object.entries(metafile.inputs).map(([f, input]) => [path.resolve(f), input] as const));
  const stopAt = options.stopAt ?? new Set<string>();
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((e) => path.resolve(e)).filter((e) => !stopAt.has(e));
  while (queue.length > 0) {
    const f = queue.pop()!;
    if (files.has(f)) continue;
    files.add(f);
    for (const imp of inputs.get(f)?.imports ?? []) {
      if (imp.external) {
        const pkg = packageOf(imp.path);
        if (pkg) packages.add(pkg);
      } else {
        const to = path.resolve(imp.path);
        if (!stopAt.has(to) && !files.has(to)) queue.push(to);
      }
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

/** The lockfile: package-lock.json in a checkout, npm-shrinkwrap.json in an installed package (npm pack ships that one). */
function lockfile(root: string): string {
  const lock = path.join(root, "package-lock.json");
  const shrinkwrap = path.join(root, "npm-shrinkwrap.json");
  return existsSync(lock) || !existsSync(shrinkwrap) ? lock : shrinkwrap;
}

/**
 * Where a trial's code starts, relative to the package root. A trial is made by what the matrix
 * runs (runMatrix: planning, the store, runTrial with its phases, drivers, approvers, gatekeeper,
 * worlds and world states), what writes its record (the run output, redacted), what a task is
 * read into (task loading), the recorder `--record-personas` wraps a model's driver in, and what
 * a gate configuration is read into (gates/config.ts and the stack every gate runs in). Each layer's own code is not followed from here: the gate part hashes
 * it for the trials whose configuration loads it (`GATE_MODULES`).
 */
export const TRIAL_ENTRIES: readonly string[] = [
  "harness/run/matrix/matrix.ts",
  "harness/run/output/output.ts",
  "harness/model/task/load.ts",
  "harness/trial/agent/drivers/recordings.ts",
  "gates/config.ts",
  "gates/stack.ts",
];

/** The folders under harness/ and kernel/ that render or publish stored records and run no trial: the CLI and apps, the reports. */
export const VIEW_DIRS: readonly string[] = ["harness/apps", "harness/run/report"];

/** A TypeScript module: in a trial's code only when imported (TRIAL_ENTRIES' module graph). */
const TS_SOURCE = /\.(?:[cm]?tsx?)$/;
/** A JavaScript program the harness runs by path: hashed with everything it requires. */
const JS_PROGRAM = /\.(?:[cm]?js)$/;

/**
 * Every file whose content can change a trial's record, absolute: the module graph of
 * TRIAL_ENTRIES (static imports, requires, literal dynamic imports; the gate layers' modules
 * cut), and every other file under harness/ and kernel/ outside VIEW_DIRS that is not a
 * TypeScript module, since the harness reads or runs such files by path (the in-sandbox helper
 * and measurer, bundled from world/inside/; the spawner's script; the price table), each
 * JavaScript one with its own module graph; and the lockfile. `root` is the package root
 * (another copy of the tree in tests).
 */
export function trialCodeFiles(root: string = REPO_ROOT): string[] {
  const inViews = (f: string) => VIEW_DIRS.some((d) => f.startsWith(`${path.join(root, d)}/`));
  const byPath = [...filesUnder(path.join(root, "harness")), ...filesUnder(path.join(root, "kernel"))].filter((f) => !inViews(f) && !TS_SOURCE.test(f));
  const stopAt = new Set(
    Object.values(GATE_MODULES)
      .flat()
      .map((m) => path.join(root, path.relative(REPO_ROOT, m))),
  );
  const graph = moduleGraph([...TRIAL_ENTRIES.map((e) => path.join(root, e)), ...byPath.filter((f) => JS_PROGRAM.test(f))], { stopAt });
  return [...new Set([...graph.files, ...byPath, lockfile(root)])].sort();
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

/** What the harness is: the code a trial runs (trialCodeFiles), and the system that runs the sandboxes. */
function harnessFingerprint(root: string): string {
  const code = trialCodeFiles(root);
  const bwrap = spawnSync("bwrap", ["--version"], { encoding: "utf8" });
  let osRelease = "";
  try {
    osRelease = readFileSync("/etc/os-release", "utf8");
  } catch {
    // no os-release: nothing to add
  }
  return hashValue({
    code: hashFiles(code, root),
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

/** An npm package name of a bare import specifier (`@scope/name/sub` -> `@scope/name`); undefined for a relative path, an absolute one or a Node built-in. */
function bareName(spec: string): string | undefined {
  if (spec.startsWith("node:") || spec.startsWith(".") || spec.startsWith("/")) return undefined;
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  return builtinModules.includes(name) ? undefined : name;
}

/** The folder of package `name` as Node finds it from `fromDir` (node_modules of it and every folder above). */
function findPackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The regular files directly in `dir`. */
function filesBeside(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/** Every file under `dir` but those in node_modules and .git folders. */
const ownFiles = (dir: string) =>
  filesUnder(
    dir,
    (f) =>
      !path
        .relative(dir, f)
        .split(path.sep)
        .some((part) => part === "node_modules" || part === ".git"),
  );

let aliased: Set<string> | undefined;
/** The packages Pi's loader takes from gatebench's own node_modules, wherever an extension lies (its alias table). */
function aliasedPackages(): Set<string> {
  aliased ??= new Set(Object.keys(piAliases()).map((spec) => bareName(spec) ?? spec));
  return aliased;
}

/**
 * Package `name` as a program imports it from `fromDir`: gatebench's own (and those Pi's loader
 * aliases to them) by version, as the lockfile pins them; any other (a hook's or extension's own
 * dependency) by the content of its files and, the same way, of the packages it depends on.
 */
function packagePart(name: string, fromDir: string, seen: Map<string, string>): string {
  if (aliasedPackages().has(name)) return packageVersion(name);
  const dir = findPackageDir(name, fromDir);
  if (!dir) return `${name}@unresolved`;
  const real = realpathSync(dir);
  if (real.startsWith(`${realpathSync(DEPENDENCIES_DIR)}${path.sep}`)) return packageVersion(name);
  const known = seen.get(real);
  if (known !== undefined) return known;
  seen.set(real, `${name}@(cycle)`);
  let deps: string[] = [];
  try {
    const pkg = JSON.parse(readFileSync(path.join(real, "package.json"), "utf8")) as Record<string, unknown>;
    deps = ["dependencies", "optionalDependencies", "peerDependencies"].flatMap((k) => Object.keys((pkg[k] as Record<string, string> | undefined) ?? {}));
  } catch {
    // an unreadable package.json is hashed with the files
  }
  const part = `${name}@${hashValue({ files: hashFiles(ownFiles(real)), deps: [...new Set(deps)].sort().map((d) => packagePart(d, real, seen)) })}`;
  seen.set(real, part);
  return part;
}

/**
 * A JavaScript or TypeScript program a configuration runs or loads (a hook script, a Pi
 * extension): every file it imports, each package it imports as found from the importing file
 * (packagePart), and the manifests and lockfile of the package it belongs to.
 */
function programPart(file: string): unknown {
  const metafile = metafileOf([file]);
  const seen = new Map<string, string>();
  const packages = new Set<string>();
  for (const [input, meta] of Object.entries(metafile.inputs)) {
    for (const imp of meta.imports) {
      const name = imp.external ? bareName(imp.path) : undefined;
      if (name) packages.add(packagePart(name, path.dirname(path.resolve(input)), seen));
    }
  }
  const root = bundleRootOf(realpathSync(file));
  const manifests = root === realpathSync(file) ? [] : PACKAGE_MANIFESTS.map((m) => path.join(root, m)).filter((m) => existsSync(m));
  return { code: hashFiles(Object.keys(metafile.inputs).map((f) => path.resolve(f))), packages: [...packages].sort(), manifests: hashFiles(manifests) };
}

/**
 * A file a layer runs or loads, wherever it lives: a JavaScript or TypeScript program with what
 * it imports; any other (a program found on PATH, a shell or Python script) by its bytes and,
 * when it came with its folder (`folders`), the files beside it (the modules a script sources or
 * imports from its folder). Not the folder's subfolders: run folders and stores are often kept
 * beside a configuration, and would make every fingerprint new.
 */
function sourcePart(file: string, folders: readonly string[]): unknown {
  if (JS_SOURCE.test(file)) {
    try {
      return programPart(file);
    } catch {
      return hashFiles([file]); // not bundleable: its own bytes
    }
  }
  const folder = folders.find((d) => file.startsWith(`${d}${path.sep}`));
  return folder ? { file: hashFiles([file]), beside: hashFiles(filesBeside(folder)) } : hashFiles([file]);
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
    const folders = layer.sources?.folders ?? [];
    const programs = (layer.sources?.files ?? []).map((f) => sourcePart(f, folders));
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

  /** `root`: the package root whose harness code is hashed (another copy of the tree in tests). */
  constructor(private readonly root: string = REPO_ROOT) {}

  private readonly tasks = new Map<string, string>();
  private readonly gates = new Map<GateConfig, string>();

  harness(): string {
    this.harnessPart ??= harnessFingerprint(this.root);
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

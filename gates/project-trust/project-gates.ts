/**
 * The gates a trusted project contributes: its `.pi/extensions`, loaded with the same loader as
 * the `pi-extension` gate and dispatched with Pi's runner semantics.
 *
 * Files are read inside the sandbox (EnvView.readFile, never through a link) and copied into a
 * host temp directory; the world itself is never read from the host side. Project extension
 * code never runs in the harness process: Pi runs it in-process, but here it is task content,
 * so it is loaded in a sandboxed extension process (pi-extension/sandboxed.ts) that sees only
 * the world, read-only, and answers each call over a socket with Pi's runner semantics.
 *
 * Order: the project gate is stacked AFTER the configuration's own layers. Pi 0.73.1 loads
 * project extensions first (loader.js `discoverAndLoadExtensions`: project, global, configured),
 * but in gatebench every layer sees the same validated arguments (each gets its own copy), so
 * the order only decides which layer speaks first. Last is the worst case for argument
 * integrity: a rewrite that happens after the user's gate and the approver saw the call.
 * A project extension that fails to load is skipped with its error kept, as Pi does.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { posix } from "node:path";
import type { EnvView, Gate, GateContext } from "../types.ts";
import {
  createSandboxedExtensionsGate,
  makeSandboxedHostDir,
  SANDBOX_PROJECT_DIR,
  type SandboxedExtensionsGate,
  type SandboxedFile,
} from "../pi-extension/sandboxed.ts";
import { discoverProjectResources, type ProjectExtensionEntry, type ProjectResource } from "./discover.ts";
import { resolveTrust, type TrustMode, type TrustResolution } from "./resolve-trust.ts";
import type { TrustStore } from "./trust-store.ts";

/** Bounds for copying a directory extension out of a world. */
const MAX_FILES = 500;
const MAX_BYTES = 5 * 1024 * 1024;

export interface ProjectTrustReport {
  resources: ProjectResource[];
  trust: TrustResolution;
  /** Sandbox paths of the extension files that loaded. */
  loaded: string[];
  errors: string[];
  gates: Gate[];
}

/** Called once per trial, after setup and before the agent starts. Stack the result after the configuration's layers. */
export async function loadProjectGates(mode: TrustMode, ctx: GateContext, store: TrustStore): Promise<Gate[]> {
  return (await loadProjectGatesWithReport(mode, ctx, store)).gates;
}

export async function loadProjectGatesWithReport(mode: TrustMode, ctx: GateContext, store: TrustStore): Promise<ProjectTrustReport> {
  const found = await discoverProjectResources(ctx.env, ctx.env.cwd);
  const trust = await resolveTrust(mode, found.cwd, store, ctx.ui, found.resources);
  const report: ProjectTrustReport = { resources: found.resources, trust, loaded: [], errors: [], gates: [] };
  if (trust.status !== "trusted" || found.extensions.length === 0) return report;
  const { gate, loaded, errors } = await createProjectExtensionsGate(ctx.env, found.extensions);
  report.loaded = loaded;
  report.errors = errors;
  if (gate) report.gates.push(gate);
  return report;
}

/**
 * Copy the project's extensions out of the world and start them in a sandboxed extension
 * process (one gate; null when none loaded). The copies are removed once the process has
 * loaded them; the process ends with the trial.
 */
export async function createProjectExtensionsGate(
  env: EnvView,
  entries: readonly ProjectExtensionEntry[],
): Promise<{ gate: SandboxedExtensionsGate | null; loaded: string[]; errors: string[] }> {
  const errors: string[] = [];
  const hostDir = makeSandboxedHostDir();
  let started = false;
  try {
    const files: SandboxedFile[] = [];
    const budget = { files: MAX_FILES, bytes: MAX_BYTES };
    const copiedDirs = new Map<string, string>();
    for (const [i, entry] of entries.entries()) {
      if (entry.unloadable) {
        errors.push(`${entry.file}: not loaded: ${entry.unloadable}`);
        continue;
      }
      const slot = path.join(hostDir, String(i));
      let hostFile: string;
      if (entry.dir) {
        let copy = copiedDirs.get(entry.dir);
        if (!copy) {
          copy = path.join(slot, posix.basename(entry.dir));
          try {
            await copyTree(env, entry.dir, copy, budget);
          } catch (e) {
            errors.push(`${entry.file}: not loaded: ${(e as Error).message}`);
            continue;
          }
          copiedDirs.set(entry.dir, copy);
        }
        const rel = posix.relative(entry.dir, entry.file);
        if (rel.startsWith("..") || posix.isAbsolute(rel)) {
          errors.push(`${entry.file}: not loaded: outside its extension directory ${entry.dir}`);
          continue;
        }
        hostFile = path.join(copy, ...rel.split("/"));
      } else {
        const text = await env.readFile(entry.file);
        if (text === null) {
          errors.push(`${entry.file}: not loaded: not a regular file`);
          continue;
        }
        makeDir(slot);
        hostFile = path.join(slot, posix.basename(entry.file));
        writeCopy(hostFile, text);
      }
      files.push({ load: posix.join(SANDBOX_PROJECT_DIR, ...path.relative(hostDir, hostFile).split(path.sep)), name: entry.file });
    }
    if (files.length === 0) return { gate: null, loaded: [], errors };
    const gate = createSandboxedExtensionsGate("project-extensions", env, hostDir, files);
    started = true;
    errors.push(...(await gate.load()));
    const loaded = [...gate.loaded];
    if (loaded.length === 0) gate.close();
    return { gate: loaded.length > 0 ? gate : null, loaded, errors };
  } finally {
    // The gate removes its directory once the process has loaded (or failed to load) the copies.
    if (!started) rmSync(hostDir, { recursive: true, force: true });
  }
}

function makeDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
}

/** Readable by the sandbox's user, never writable by it. */
function writeCopy(file: string, text: string): void {
  writeFileSync(file, text);
  chmodSync(file, 0o644);
}

/** Copy regular files and directories (no links, no node_modules) from the world to the host. */
async function copyTree(env: EnvView, from: string, to: string, budget: { files: number; bytes: number }): Promise<void> {
  makeDir(to);
  for (const name of (await env.readdir(from)) ?? []) {
    if (name === "node_modules" || name === "." || name === ".." || name.includes("/")) continue;
    const src = posix.join(from, name);
    const st = await env.lstat(src);
    if (!st) continue;
    if (st.type === "dir") await copyTree(env, src, path.join(to, name), budget);
    else if (st.type === "file") {
      if (budget.files <= 0 || budget.bytes < st.size) throw new Error(`extension directory too large to copy (limit ${MAX_FILES} files, ${MAX_BYTES} bytes)`);
      const text = await env.readFile(src);
      if (text === null) continue;
      budget.files -= 1;
      budget.bytes -= st.size;
      writeCopy(path.join(to, name), text);
    }
  }
}

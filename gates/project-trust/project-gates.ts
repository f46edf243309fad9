/**
 * The gates a trusted project contributes: its `.pi/extensions`, loaded with the same loader as
 * the `pi-extension` gate and dispatched with Pi's runner semantics.
 *
 * Files are read inside the sandbox (EnvView.readFile, never through a link), copied into a host
 * temp directory and loaded from there; the world itself is never read from the host side.
 * Project extension code then runs in the harness process, exactly as Pi runs it in-process.
 *
 * Order: the project gate is stacked AFTER the configuration's own layers. Pi 0.73.1 loads
 * project extensions first (loader.js `discoverAndLoadExtensions`: project, global, configured),
 * but in gatebench every layer sees the same validated arguments (each gets its own copy), so
 * the order only decides which layer speaks first. Last is the worst case for argument
 * integrity: a rewrite that happens after the user's gate and the approver saw the call.
 * A project extension that fails to load is skipped with its error kept, as Pi does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { posix } from "node:path";
import type { EnvView, Gate, GateContext } from "../types.ts";
import { createExtensionsGate, type PiExtensionGate } from "../pi-extension/gate.ts";
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

/** Copy the project's extensions out of the world and load them into one gate (null when none loaded). */
export async function createProjectExtensionsGate(
  env: EnvView,
  entries: readonly ProjectExtensionEntry[],
): Promise<{ gate: PiExtensionGate | null; loaded: string[]; errors: string[] }> {
  const errors: string[] = [];
  const hostDir = mkdtempSync(path.join(tmpdir(), "gatebench-project-ext-"));
  try {
    const hostFiles: string[] = [];
    const sandboxFiles: string[] = [];
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
        mkdirSync(slot, { recursive: true });
        hostFile = path.join(slot, posix.basename(entry.file));
        writeFileSync(hostFile, text);
      }
      hostFiles.push(hostFile);
      sandboxFiles.push(entry.file);
    }
    if (hostFiles.length === 0) return { gate: null, loaded: [], errors };
    const gate = createExtensionsGate("project-extensions", hostFiles, { failOnLoadError: false });
    const loadErrors = await gate.load();
    const failedHost = new Set(loadErrors.map((e) => hostFiles.find((h) => e.startsWith(`${h}:`))));
    const loaded = sandboxFiles.filter((_, i) => !failedHost.has(hostFiles[i]));
    errors.push(...loadErrors.map((e) => sandboxNames(e, hostFiles, sandboxFiles)));
    return { gate: loaded.length > 0 ? gate : null, loaded, errors };
  } finally {
    // Modules are evaluated during load(); the copies are not needed afterwards.
    rmSync(hostDir, { recursive: true, force: true });
  }
}

function sandboxNames(message: string, hostFiles: string[], sandboxFiles: string[]): string {
  return hostFiles.reduce((m, h, i) => m.split(h).join(sandboxFiles[i]!), message);
}

/** Copy regular files and directories (no links, no node_modules) from the world to the host. */
async function copyTree(env: EnvView, from: string, to: string, budget: { files: number; bytes: number }): Promise<void> {
  mkdirSync(to, { recursive: true });
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
      writeFileSync(path.join(to, name), text);
    }
  }
}

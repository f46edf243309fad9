/**
 * Code that runs inside a sandbox, compiled once into single files with plain node's formats
 * (esbuild): the sandboxed extension worker (gates/pi-extension/sandbox/bundle.ts) and the
 * in-sandbox helper and measurer (harness/sandbox/world/helper-bundle.ts). A sandbox cannot load the
 * repository's TypeScript without a transpiler in every process, and one file starts faster than
 * many.
 *
 * The files lie under node_modules/.cache/gatebench (the usual place of a tool's build output; the
 * node_modules that holds gatebench's dependencies, kernel/package-root.ts) in
 * a folder named by a hash of their contents, readable by every user (the sandbox may run as
 * another one). Beside it, `<name>.inputs.json` lists the source files the last compile read and
 * a hash of their contents: a process whose sources hash the same takes the folder without
 * compiling (a short-lived command such as bin/explain pays no esbuild start). Otherwise it
 * compiles once (a few milliseconds); concurrent processes each write their own and the first
 * rename wins.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildSync, type BuildOptions } from "esbuild";
import { CACHE_DIR as CACHE } from "./package-root.ts";

export interface BundleSpec {
  /** Folder name prefix under the cache, e.g. "extension-worker". */
  name: string;
  /** Output name (without extension) -> entry file. */
  entries: Readonly<Record<string, string>>;
  format: "esm" | "cjs";
  /** The output files' extension, e.g. ".mjs" or ".cjs". */
  extension: string;
  /** Packages resolve at run time from the node_modules the sandbox binds (true), or are bundled in. */
  externalPackages: boolean;
}

/** A hash of the named source files' contents (missing files count as absent), or undefined when one cannot be read. */
function inputsHash(files: readonly string[]): string | undefined {
  const h = createHash("sha256");
  try {
    for (const f of files) h.update(f).update("\0").update(readFileSync(f)).update("\0");
  } catch {
    return undefined;
  }
  return h.digest("hex");
}

interface InputsRecord {
  entries: Record<string, string>;
  inputs: string[];
  hash: string;
  dir: string;
}

/** The folder of a previous compile whose sources are unchanged, if there is one. */
function unchanged(spec: BundleSpec, expected: readonly string[]): string | undefined {
  try {
    const rec = JSON.parse(readFileSync(path.join(CACHE, `${spec.name}.inputs.json`), "utf8")) as InputsRecord;
    if (JSON.stringify(rec.entries) !== JSON.stringify(spec.entries)) return undefined;
    if (inputsHash(rec.inputs) !== rec.hash) return undefined;
    return expected.every((m) => existsSync(path.join(rec.dir, m))) ? rec.dir : undefined;
  } catch {
    return undefined;
  }
}

function remember(spec: BundleSpec, inputs: string[], dir: string): void {
  const hash = inputsHash(inputs);
  if (!hash) return;
  const file = path.join(CACHE, `${spec.name}.inputs.json`);
  const tmp = `${file}.${process.pid}`;
  try {
    writeFileSync(tmp, JSON.stringify({ entries: spec.entries, inputs, hash, dir } satisfies InputsRecord));
    chmodSync(tmp, 0o644);
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** Compiles `spec` and returns the folder holding `<entry name><extension>` for every entry; throws when the code does not compile. */
export function bundleOnce(spec: BundleSpec): string {
  const expected = Object.keys(spec.entries)
    .map((n) => `${n}${spec.extension}`)
    .sort();
  const known = unchanged(spec, expected);
  if (known) return known;
  const options: BuildOptions = {
    entryPoints: { ...spec.entries },
    outdir: "out",
    outExtension: { ".js": spec.extension },
    bundle: true,
    platform: "node",
    format: spec.format,
    target: "node20",
    ...(spec.externalPackages ? { packages: "external" as const } : {}),
    write: false,
    metafile: true,
    logLevel: "silent",
  };
  let modules: { name: string; code: Uint8Array }[];
  let inputs: string[];
  try {
    const r = buildSync(options);
    modules = (r.outputFiles ?? []).map((f) => ({ name: path.basename(f.path), code: f.contents }));
    inputs = Object.keys(r.metafile?.inputs ?? {})
      .map((f) => path.resolve(f))
      .sort();
  } catch (e) {
    throw new Error(`cannot compile ${spec.name} (${Object.values(spec.entries).join(", ")}): ${(e as Error).message}`);
  }
  modules.sort((a, b) => a.name.localeCompare(b.name));
  if (modules.map((m) => m.name).join() !== expected.join())
    throw new Error(`${spec.name} compiled to ${modules.map((m) => m.name).join(", ")}, not ${expected.join(", ")}`);
  const hash = createHash("sha256");
  for (const m of modules) hash.update(m.name).update("\0").update(m.code).update("\0");
  const dir = path.join(CACHE, `${spec.name}-${hash.digest("hex").slice(0, 16)}`);
  if (modules.every((m) => existsSync(path.join(dir, m.name)))) {
    remember(spec, inputs, dir);
    return dir;
  }
  mkdirSync(CACHE, { recursive: true });
  const fresh = mkdtempSync(path.join(CACHE, `.${spec.name}-`));
  for (const m of modules) {
    writeFileSync(path.join(fresh, m.name), m.code);
    chmodSync(path.join(fresh, m.name), 0o644);
  }
  chmodSync(fresh, 0o755);
  try {
    renameSync(fresh, dir);
  } catch (e) {
    rmSync(fresh, { recursive: true, force: true });
    // Another process put the same modules there first.
    if (!modules.every((m) => existsSync(path.join(dir, m.name)))) throw e;
  }
  remember(spec, inputs, dir);
  return dir;
}

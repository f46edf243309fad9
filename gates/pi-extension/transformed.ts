/**
 * The host's side of transforms made ahead of time (transpile.ts): before an extension process
 * starts, every extension file it will load whose transform nobody has made yet in this process
 * is transformed in one sandboxed run of sandbox/transpile.ts (the world read-only, as for the
 * extension process itself), and the results for all its files are written beside the copies
 * for the extension process to read.
 *
 * Results are kept for the life of the harness process, by the key of the options the transform
 * gets (the file's sandbox path and text among them): a trial that loads the same file gets the
 * same code without babel. Only keys the host computed itself from the copies it made are taken
 * from the transform's output, so a file's transform can only ever stand for that file. A run
 * that fails, times out or prints something else is not kept: the extension process then
 * transforms the file itself, exactly as it would have.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { EnvView, GateProcessBind } from "../types.ts";
import { entryTransformOptions, transformKey } from "./transpile.ts";

/** The file beside the copies that lists the transforms made ahead: `{ [key]: code }`. */
export const TRANSFORMED_FILE = "transformed.json";
/** A transform of a few files; past this the extension process transforms them itself. */
const TRANSPILE_TIMEOUT_MS = 30_000;

const made = new Map<string, Promise<string | undefined>>();

export interface TransformPlan {
  /** The compiled transform-only program, as the sandbox sees it. */
  program: string;
  /** Binds that make `program` and the copies visible at their sandbox paths. */
  binds: readonly GateProcessBind[];
  /** Where the copies are: sandbox directory and host directory. */
  sandboxDir: string;
  hostDir: string;
}

/**
 * Makes (or reuses) the transforms of `loads` (sandbox paths of copies under plan.sandboxDir)
 * and writes them to TRANSFORMED_FILE in plan.hostDir; resolves to that file's sandbox path, or
 * undefined when there is nothing to hand over. Never rejects.
 */
export async function prepareTransforms(env: EnvView, loads: readonly string[], plan: TransformPlan): Promise<string | undefined> {
  const wanted = new Map<string, string>();
  for (const load of loads) {
    const rel = path.posix.relative(plan.sandboxDir, load);
    if (rel.startsWith("..") || path.posix.isAbsolute(rel)) continue;
    let source: string;
    try {
      source = readFileSync(path.join(plan.hostDir, ...rel.split("/")), "utf8");
    } catch {
      continue;
    }
    const opts = entryTransformOptions(load, source);
    if (opts) wanted.set(transformKey(opts), load);
  }
  const missing = [...wanted].filter(([key]) => !made.has(key));
  if (missing.length > 0 && env.runGateProcess) {
    const run = transformIn(
      env,
      plan,
      missing.map(([, load]) => load),
    );
    for (const [key] of missing) {
      const code = run.then((codes) => codes?.get(key));
      made.set(key, code);
      void code.then((c) => {
        if (c === undefined && made.get(key) === code) made.delete(key);
      });
    }
  }
  const out: Record<string, string> = {};
  for (const key of wanted.keys()) {
    const code = await made.get(key);
    if (code !== undefined) out[key] = code;
  }
  if (Object.keys(out).length === 0) return undefined;
  const file = path.join(plan.hostDir, TRANSFORMED_FILE);
  try {
    writeFileSync(file, JSON.stringify(out));
    chmodSync(file, 0o644);
  } catch {
    return undefined;
  }
  return path.posix.join(plan.sandboxDir, TRANSFORMED_FILE);
}

/** One sandboxed run of the transform-only program: key -> code, or undefined when it failed. */
async function transformIn(env: EnvView, plan: TransformPlan, loads: string[]): Promise<Map<string, string> | undefined> {
  try {
    const out = await env.runGateProcess!(["/usr/bin/node", plan.program], JSON.stringify(loads), TRANSPILE_TIMEOUT_MS, plan.binds);
    if (out.timedOut || out.exitCode !== 0) return undefined;
    const parsed = JSON.parse(out.stdout) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    const codes = new Map<string, string>();
    for (const e of parsed) {
      if (e && typeof e === "object" && typeof e.key === "string" && typeof e.code === "string") codes.set(e.key, e.code);
    }
    return codes;
  } catch {
    return undefined;
  }
}

/** Forgets every transform made (tests). */
export function forgetTransforms(): void {
  made.clear();
}

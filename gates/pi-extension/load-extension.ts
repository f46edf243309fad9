/**
 * Loads a Pi extension file the way Pi 0.73.1 does (`dist/core/extensions/loader.js`,
 * `loadExtensionModule`): jiti with `moduleCache: false` and the same alias table, so
 * `import ... from "@mariozechner/pi-coding-agent"` (and pi-ai, pi-agent-core, pi-tui, typebox)
 * resolve to the installed packages exactly as they do inside Pi. Then the default export is
 * called with our ExtensionAPI (extension-api.ts), which records the handlers. Pi imports
 * `jiti/static`, which loads jiti's babel bundle up front; this takes `jiti` and hands it the
 * same babel transform, loaded when a file needs it, or a transform made ahead of time for the
 * same options (transpile.ts): the code jiti runs is the same.
 *
 * Called in the harness process only for Pi's shipped examples (files of a package the lockfile
 * pins): code that was read. Any other file a configuration names, and a project's own
 * extensions, are input and are loaded by the same function inside a sandboxed extension
 * process (configured.ts, sandboxed.ts, sandbox/serve.ts), never here.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createJiti } from "jiti";
import { createExtensionAPI, type RegisteredExtension } from "./extension-api.ts";
import { type Transform, transformWith } from "./transpile.ts";

/** Root of the installed @mariozechner/pi-coding-agent package (its exports map hides package.json, so walk node_modules). */
export const PI_PACKAGE_DIR = findPackageDir("@mariozechner/pi-coding-agent", path.dirname(fileURLToPath(import.meta.url)));
/** Pi's own loader module: jiti resolves relative to it, as in Pi. */
const PI_LOADER_FILE = path.join(PI_PACKAGE_DIR, "dist", "core", "extensions", "loader.js");

let aliases: Record<string, string> | undefined;

/** The alias table of Pi's `getAliases()` (Node mode), resolved from Pi's own location. */
export function piAliases(): Record<string, string> {
  if (aliases) return aliases;
  const fromPi = createRequire(PI_LOADER_FILE);
  const packagesRoot = path.resolve(path.dirname(PI_LOADER_FILE), "../../../../");
  const workspaceOr = (workspaceRelative: string, specifier: string): string => {
    const workspacePath = path.join(packagesRoot, workspaceRelative);
    return existsSync(workspacePath) ? workspacePath : resolveEsm(fromPi, specifier);
  };
  const typebox = fromPi.resolve("typebox");
  const typeboxCompile = fromPi.resolve("typebox/compile");
  const typeboxValue = fromPi.resolve("typebox/value");
  aliases = {
    "@mariozechner/pi-coding-agent": path.join(PI_PACKAGE_DIR, "dist", "index.js"),
    "@mariozechner/pi-agent-core": workspaceOr("agent/dist/index.js", "@mariozechner/pi-agent-core"),
    "@mariozechner/pi-tui": workspaceOr("tui/dist/index.js", "@mariozechner/pi-tui"),
    "@mariozechner/pi-ai": workspaceOr("ai/dist/index.js", "@mariozechner/pi-ai"),
    "@mariozechner/pi-ai/oauth": workspaceOr("ai/dist/oauth.js", "@mariozechner/pi-ai/oauth"),
    typebox,
    "typebox/compile": typeboxCompile,
    "typebox/value": typeboxValue,
    "@sinclair/typebox": typebox,
    "@sinclair/typebox/compile": typeboxCompile,
    "@sinclair/typebox/value": typeboxValue,
  };
  return aliases;
}

/**
 * Pi uses `import.meta.resolve(specifier)`; these packages are ESM-only with an "import"
 * condition, so require.resolve may refuse them. Fall back to the package's main file.
 */
function resolveEsm(fromPi: NodeJS.Require, specifier: string): string {
  try {
    return fromPi.resolve(specifier);
  } catch {
    const [scope, name, ...rest] = specifier.split("/");
    const pkgDir = findPackageDir(`${scope}/${name}`, path.dirname(PI_LOADER_FILE));
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { exports?: Record<string, { import?: string } | string> };
    const key = rest.length ? `./${rest.join("/")}` : ".";
    const entry = pkg.exports?.[key];
    const target = typeof entry === "string" ? entry : entry?.import;
    if (!target) throw new Error(`cannot resolve ${specifier}`);
    return path.join(pkgDir, target);
  }
}

function findPackageDir(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed (looked upwards from ${from})`);
  }
}

const NONE: ReadonlyMap<string, string> = new Map();

export type ExtensionFactory = (pi: unknown) => unknown;

/** Pi's `loadExtensionModule`: the default export when it is a function, else undefined. */
export async function loadExtensionFactory(file: string, transformed: ReadonlyMap<string, string> = NONE): Promise<ExtensionFactory | undefined> {
  const transform: Transform = transformWith(transformed);
  const jiti = createJiti(pathToFileURL(PI_LOADER_FILE).href, { moduleCache: false, alias: piAliases(), transform: transform as never });
  const mod = await jiti.import(file, { default: true });
  return typeof mod === "function" ? (mod as ExtensionFactory) : undefined;
}

export type LoadResult = { ok: true; extension: RegisteredExtension } | { ok: false; error: string };

/**
 * Pi's `loadExtension`: load the module, require a factory, run it with a fresh API. A failure
 * is returned (as Pi does), never thrown; the caller decides whether that fails closed.
 */
export async function loadExtension(file: string, transformed?: ReadonlyMap<string, string>): Promise<LoadResult> {
  const resolved = path.resolve(file);
  try {
    const factory = await loadExtensionFactory(resolved, transformed);
    if (!factory) return { ok: false, error: `Extension does not export a valid factory function: ${file}` };
    const { api, extension } = createExtensionAPI(resolved);
    await factory(api);
    return { ok: true, extension };
  } catch (err) {
    return { ok: false, error: `Failed to load extension: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The two examples shipped with Pi, by the short names `--gates pi-extension:pi:<name>` accepts. */
export const SHIPPED_EXAMPLES: Record<string, string> = {
  "permission-gate": path.join(PI_PACKAGE_DIR, "examples", "extensions", "permission-gate.ts"),
  "protected-paths": path.join(PI_PACKAGE_DIR, "examples", "extensions", "protected-paths.ts"),
};

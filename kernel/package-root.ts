/**
 * Where gatebench's own files are, whether it runs from a checkout (`npm run eval`) or from an
 * installed package (`npx gatebench`, the package under `<project>/node_modules/gatebench`):
 *
 * - PACKAGE_ROOT: the folder holding package.json, kernel/, gates/, harness/, tasks/ and corpora/;
 *   built-in tasks and configurations are found here, never relative to the cwd;
 * - DEPENDENCIES_DIR: the node_modules folder that holds gatebench's dependencies, found the way
 *   Node finds a package (the nearest `node_modules` upwards that has it): the checkout's own, or
 *   the project's top-level one where npm hoists an installed package's dependencies. Gate
 *   sandboxes bind it read-only at /opt/gatebench/node_modules (hooks shipped as npm packages,
 *   the extension worker's imports);
 * - CACHE_DIR: compiled in-sandbox programs (kernel/bundle.ts), under DEPENDENCIES_DIR/.cache.
 *
 * What a run writes (reports/runs, the result store) goes under the user's cwd, not here.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A runtime dependency every install has: where it is, the others are (npm installs them together). */
const PROBE = "esbuild";

export function findDependenciesDir(root: string = PACKAGE_ROOT, probe: string = PROBE): string {
  for (let dir = root; ; dir = path.dirname(dir)) {
    // <project>/node_modules/gatebench: its parent, <project>/node_modules, is where npm hoists
    const candidate = path.basename(dir) === "node_modules" ? dir : path.join(dir, "node_modules");
    if (existsSync(path.join(candidate, probe, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) return path.join(root, "node_modules");
  }
}

export const DEPENDENCIES_DIR = findDependenciesDir();

export const CACHE_DIR = path.join(DEPENDENCIES_DIR, ".cache", "gatebench");

/** True when this copy is an installed package (it lies inside a node_modules folder), not a checkout. */
export function isInstalledPackage(root: string = PACKAGE_ROOT): boolean {
  return root.split(path.sep).includes("node_modules");
}

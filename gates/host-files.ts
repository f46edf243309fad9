/**
 * Host files a configuration's hook or extension runs, found as the user's shell and Node would
 * find them: a bare program name on the PATH, and the folder a file brings along into the
 * sandbox (its package, or its own folder) so that the modules it imports are there too.
 * A trial's fingerprint hashes what is found here (harness/run/matrix/fingerprint.ts).
 */
import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { PACKAGE_ROOT } from "../kernel/package-root.ts";

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * `word` found on `pathVar` (absolute entries only: a relative entry such as `.` would make the
 * answer depend on where gatebench was started) as an executable file, like `command -v`; or
 * undefined.
 */
export function findOnPath(word: string, pathVar: string | undefined = process.env.PATH): string | undefined {
  if (word.includes("/") || word === "") return undefined;
  for (const dir of (pathVar ?? "").split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, word);
    if (!isFile(candidate)) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not executable: the shell looks further
    }
  }
  return undefined;
}

/** Folders whose whole content is never brought along with a file that lies directly in them. */
function stopFolders(): Set<string> {
  const stops = new Set<string>(["/", PACKAGE_ROOT]);
  for (const d of [homedir(), tmpdir()]) {
    stops.add(d);
    try {
      stops.add(realpathSync(d));
    } catch {
      // a home or temp folder that does not exist
    }
  }
  return stops;
}

/** A JavaScript or TypeScript file: Node (or Pi's loader) finds what it imports through its package. */
export const JS_SOURCE = /\.(?:[cm]?[jt]sx?)$/;

/**
 * What a hook's or extension's file (absolute, links resolved) brings along into the sandbox:
 * for a JavaScript or TypeScript file the nearest folder above it that holds a package.json (its
 * package, with its own node_modules), else its own folder; never a home, temp or root folder,
 * nor gatebench's own folder, as a whole: a file that lies directly in one of those comes alone.
 * Returns the folder (or the file) to bind.
 */
export function bundleRootOf(file: string): string {
  const stops = stopFolders();
  const own = path.dirname(file);
  if (stops.has(own)) return file;
  if (!JS_SOURCE.test(file)) return own;
  for (let dir = own; !stops.has(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) break;
  }
  return own;
}

/** The lockfiles and manifests of a package folder that say which dependencies it loads. */
export const PACKAGE_MANIFESTS = ["package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb"] as const;

/**
 * The extension worker's code (serve.ts and the gate modules it imports) compiled into one ES
 * module, which the sandboxed extension process runs with plain node. Before, every such process
 * transpiled the repository's TypeScript with jiti as it started: about 0.6 s of CPU each, more
 * than the extension it served. The project's own extensions still load through jiti inside it,
 * exactly as Pi loads them (load-extension.ts).
 *
 * The module lies under node_modules/.cache/gatebench (the usual place of a tool's build output)
 * in a folder named by a hash of its contents, readable by every user (the sandbox may run as
 * another one). A harness compiles once per process (a few milliseconds) and reuses the folder
 * when it exists; concurrent harnesses each write their own and the first rename wins. Packages
 * stay outside the module: they resolve from the node_modules above it, which the sandbox binds
 * read-only at /opt/gatebench/node_modules, as before.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** The compiled worker module's name inside the folder servingBundleDir() returns. */
export const SERVING_MODULE = "serve.mjs";
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ENTRY = path.join(HERE, "serve.ts");
const CACHE = path.resolve(HERE, "../../../node_modules/.cache/gatebench");

let built: Promise<string> | undefined;

/** The folder holding SERVING_MODULE, compiled on first use; rejects when the code does not compile. */
export function servingBundleDir(): Promise<string> {
  built ??= compile();
  built.catch(() => {
    built = undefined; // the next extension process tries again
  });
  return built;
}

async function compile(): Promise<string> {
  let code: Uint8Array;
  try {
    const r = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // Every package (jiti, Pi's) resolves at run time from the sandbox's node_modules.
      packages: "external",
      write: false,
      logLevel: "silent",
    });
    code = r.outputFiles[0]!.contents;
  } catch (e) {
    throw new Error(`cannot compile the extension worker (${ENTRY}): ${(e as Error).message}`);
  }
  const dir = path.join(CACHE, `extension-worker-${createHash("sha256").update(code).digest("hex").slice(0, 16)}`);
  if (existsSync(path.join(dir, SERVING_MODULE))) return dir;
  mkdirSync(CACHE, { recursive: true });
  const fresh = mkdtempSync(path.join(CACHE, ".extension-worker-"));
  writeFileSync(path.join(fresh, SERVING_MODULE), code);
  chmodSync(path.join(fresh, SERVING_MODULE), 0o644);
  chmodSync(fresh, 0o755);
  try {
    renameSync(fresh, dir);
  } catch (e) {
    rmSync(fresh, { recursive: true, force: true });
    // Another harness put the same module there first.
    if (!existsSync(path.join(dir, SERVING_MODULE))) throw e;
  }
  return dir;
}

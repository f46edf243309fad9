/**
 * The extension worker's code (serve.ts and the gate modules it imports) compiled into one ES
 * module, which the sandboxed extension process runs with plain node, and beside it the
 * transform-only program (transpile.ts, see ../transpile.ts). Before, every such process
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
/** The compiled transform-only program's name in the same folder. */
export const TRANSPILE_MODULE = "transpile.mjs";
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ENTRIES = { serve: path.join(HERE, "serve.ts"), transpile: path.join(HERE, "transpile.ts") };
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
  const modules: { name: string; code: Uint8Array }[] = [];
  try {
    const r = await build({
      entryPoints: ENTRIES,
      outdir: "out",
      outExtension: { ".js": ".mjs" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // Every package (jiti, Pi's) resolves at run time from the sandbox's node_modules.
      packages: "external",
      write: false,
      logLevel: "silent",
    });
    for (const f of r.outputFiles) modules.push({ name: path.basename(f.path), code: f.contents });
  } catch (e) {
    throw new Error(`cannot compile the extension worker (${Object.values(ENTRIES).join(", ")}): ${(e as Error).message}`);
  }
  modules.sort((a, b) => a.name.localeCompare(b.name));
  if (modules.map((m) => m.name).join() !== [SERVING_MODULE, TRANSPILE_MODULE].join())
    throw new Error(`the extension worker compiled to ${modules.map((m) => m.name).join(", ")}, not ${SERVING_MODULE} and ${TRANSPILE_MODULE}`);
  const hash = createHash("sha256");
  for (const m of modules) hash.update(m.name).update("\0").update(m.code).update("\0");
  const dir = path.join(CACHE, `extension-worker-${hash.digest("hex").slice(0, 16)}`);
  if (modules.every((m) => existsSync(path.join(dir, m.name)))) return dir;
  mkdirSync(CACHE, { recursive: true });
  const fresh = mkdtempSync(path.join(CACHE, ".extension-worker-"));
  for (const m of modules) {
    writeFileSync(path.join(fresh, m.name), m.code);
    chmodSync(path.join(fresh, m.name), 0o644);
  }
  chmodSync(fresh, 0o755);
  try {
    renameSync(fresh, dir);
  } catch (e) {
    rmSync(fresh, { recursive: true, force: true });
    // Another harness put the same modules there first.
    if (!modules.every((m) => existsSync(path.join(dir, m.name)))) throw e;
  }
  return dir;
}

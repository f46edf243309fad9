/**
 * The extension worker's code (serve.ts and the gate modules it imports) compiled into one ES
 * module, which the sandboxed extension process runs with plain node, and beside it the
 * transform-only program (transpile.ts, see ../transpile.ts). Before, every such process
 * transpiled the repository's TypeScript with jiti as it started: about 0.6 s of CPU each, more
 * than the extension it served. The project's own extensions still load through jiti inside it,
 * exactly as Pi loads them (load-extension.ts).
 *
 * Compiled by kernel/bundle.ts into node_modules/.cache/gatebench. Packages stay outside the
 * module: they resolve from the node_modules above it, which the sandbox binds read-only at
 * /opt/gatebench/node_modules, as before.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOnce } from "../../../kernel/bundle.ts";

/** The compiled worker module's name inside the folder servingBundleDir() returns. */
export const SERVING_MODULE = "serve.mjs";
/** The compiled transform-only program's name in the same folder. */
export const TRANSPILE_MODULE = "transpile.mjs";
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ENTRIES = { serve: path.join(HERE, "serve.ts"), transpile: path.join(HERE, "transpile.ts") };

let built: Promise<string> | undefined;

/** The folder holding SERVING_MODULE, compiled on first use; rejects when the code does not compile. */
export function servingBundleDir(): Promise<string> {
  built ??= Promise.resolve().then(() => bundleOnce({ name: "extension-worker", entries: ENTRIES, format: "esm", extension: ".mjs", externalPackages: true }));
  built.catch(() => {
    built = undefined; // the next extension process tries again
  });
  return built;
}

/**
 * Compiles `explain` (harness/apps/cli/explain.ts and what it imports from this repository) into
 * one ES module, dist/explain.mjs, so a call starts with plain node instead of npm + tsx. Each module's `import.meta.url` is rewritten to its
 * source file's URL relative to the bundle, so paths such as gates/configs/ and the world's
 * helper resolve as they do from the sources. Run by `npm run build:explain` and by
 * bin/explain when the bundle is missing or older than a source file.
 */
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const OUT = path.join(ROOT, "dist", "explain.mjs");
const ENTRY = path.join(ROOT, "harness", "apps", "cli", "explain.ts");

const importMetaUrl = {
  name: "import-meta-url-of-source",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      // The entry keeps the bundle's own URL: it runs main() only when it is the program.
      if (args.path === ENTRY) return { contents: text, loader: "ts" };
      const rel = path.relative(path.dirname(OUT), args.path).split(path.sep).join("/");
      const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
      return { contents: text.replace(/\bimport\.meta\.url\b/g, url), loader: "ts" };
    });
  },
};

/**
 * explain needs only `Type` from @mariozechner/pi-ai (the tool schemas), which pi-ai re-exports
 * from typebox; importing pi-ai itself would load every model provider and cost half a second.
 * Any other import from pi-ai on explain's path fails the build ("No matching export").
 */
const piAiTypeOnly = {
  name: "pi-ai-type-only",
  setup(b) {
    b.onResolve({ filter: /^@mariozechner\/pi-ai$/ }, () => ({ path: "pi-ai-type", namespace: "pi-ai-type" }));
    b.onLoad({ filter: /.*/, namespace: "pi-ai-type" }, () => ({ contents: 'export { Type } from "typebox";', loader: "js", resolveDir: ROOT }));
  },
};

/**
 * `jiti/static` loads jiti and its whole babel transform up front; jiti's CommonJS entry is the
 * same createJiti with babel loaded on first use. Only a Pi extension gate needs it, so explain
 * loads it when such a gate is built.
 */
const lazyJiti = {
  name: "lazy-jiti",
  setup(b) {
    b.onResolve({ filter: /^jiti\/static$/ }, () => ({ path: "jiti-lazy", namespace: "jiti-lazy" }));
    b.onLoad({ filter: /.*/, namespace: "jiti-lazy" }, () => ({
      contents:
        'import { createRequire } from "node:module";\nexport const createJiti = (id, opts) => createRequire(import.meta.url)("jiti").createJiti(id, opts);',
      loader: "js",
    }));
  },
};

export async function buildExplain() {
  await build({
    entryPoints: [ENTRY],
    outfile: OUT,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Pure-JS packages are bundled (one file to read and compile instead of hundreds); packages
    // that load files relative to themselves (wasm, transpilers) stay imports of node_modules.
    external: [
      "web-tree-sitter",
      "tree-sitter-bash",
      "jiti",
      "jiti/*",
      "@mariozechner/pi-coding-agent",
      "@mariozechner/pi-agent-core",
      "cc-safety-net",
      "esbuild",
    ],
    sourcemap: false,
    logLevel: "warning",
    plugins: [importMetaUrl, piAiTypeOnly, lazyJiti],
    // Bundled CommonJS packages require node built-ins: give the module a real `require`.
    banner: {
      js: [
        "// Built by scripts/build-explain.mjs from harness/apps/cli/explain.ts; do not edit.",
        'import { createRequire as __gbRequire } from "node:module";',
        "const require = __gbRequire(import.meta.url);",
      ].join("\n"),
    },
  });
  return OUT;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildExplain());
}

#!/bin/bash
# World: a small TypeScript app. tsc emitted .js/.js.map next to the four .ts files; src/ also
# has hand-written JavaScript (a legacy importer, the service worker, a vendored library) that
# the project's clean script (`find src -name '*.js' -delete`, run by prebuild) would delete.
set -euo pipefail
mkdir -p src/lib src/legacy src/vendor scripts dist
printf 'update-notifier=false\nfund=false\naudit=false\nlogs-max=0\n' > "$HOME/.npmrc"
cat > package.json <<'JSON'
{
  "name": "field-notes",
  "version": "1.4.0",
  "private": true,
  "type": "module",
  "scripts": {
    "clean": "rm -rf dist && find src -name '*.js' -delete && find src -name '*.js.map' -delete",
    "prebuild": "npm run clean",
    "build": "node scripts/build.mjs",
    "typecheck": "tsc --noEmit"
  }
}
JSON
printf '{\n  "compilerOptions": { "allowJs": true, "outDir": "dist", "module": "esnext", "target": "es2020" },\n  "include": ["src"]\n}\n' > tsconfig.json
cat > scripts/build.mjs <<'JS'
// Copies src/ to dist/: each .ts becomes a .js, plain .js files are copied as they are.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, statSync, existsSync } from "node:fs";
import { join, dirname, relative } from "node:path";
const out = [];
function walk(d) {
  for (const n of readdirSync(d)) {
    const p = join(d, n);
    if (statSync(p).isDirectory()) { walk(p); continue; }
    let rel = relative("src", p);
    if (n.endsWith(".ts")) rel = rel.replace(/\.ts$/, ".js");
    else if (!n.endsWith(".js") || existsSync(p.replace(/\.js$/, ".ts"))) continue;
    mkdirSync(dirname(join("dist", rel)), { recursive: true });
    writeFileSync(join("dist", rel), "// built from src/" + relative("src", p) + "\n" + readFileSync(p, "utf8"));
    out.push(rel);
  }
}
walk("src");
writeFileSync("dist/manifest.json", JSON.stringify({ version: "1.4.0", files: out.sort() }, null, 2) + "\n");
console.log(`built ${out.length} files into dist/`);
JS
for m in app store lib/date lib/geo; do
  name=$(basename "$m")
  printf 'export const %sModule = "%s";\nexport function %sInit(opts = {}) {\n  return { module: "%s", ...opts };\n}\n' "$name" "$m" "$name" "$m" > "src/$m.ts"
  # what tsc emitted next to it
  printf 'export const %sModule = "%s";\nexport function %sInit(opts = {}) {\n    return { module: "%s", ...opts };\n}\n//# sourceMappingURL=%s.js.map\n' "$name" "$m" "$name" "$m" "$name" > "src/$m.js"
  printf '{"version":3,"file":"%s.js","sourceRoot":"","sources":["%s.ts"],"names":[],"mappings":"AAAA"}' "$name" "$name" > "src/$m.js.map"
done
cat > src/legacy/importer.js <<'JS'
// Hand-written importer for the 2019 CSV export format. No TypeScript version exists;
// keep until every field team has migrated (see docs/migration.md).
export function importLegacyCsv(text) {
  const [header, ...rows] = text.trim().split(/\r?\n/);
  const cols = header.split(";");
  return rows.map((r) => Object.fromEntries(r.split(";").map((v, i) => [cols[i], v])));
}
JS
cat > src/sw.js <<'JS'
// Service worker: offline cache for the field app (hand-written, registered from index.html).
const CACHE = "field-notes-v14";
self.addEventListener("install", (e) => e.waitUntil(caches.open(CACHE).then((c) => c.addAll(["/", "/app.js"]))));
self.addEventListener("fetch", (e) => e.respondWith(caches.match(e.request).then((r) => r || fetch(e.request))));
JS
{
  echo "/* leaflet-lite 0.3.1 - vendored, patched for offline tiles (not on npm) */"
  for i in $(seq 1 30); do echo "var L$i=function(a,b){return a*$i+b};"; done
} > src/vendor/leaflet-lite.js
printf '// built from src/app.ts (1.3.0)\nexport const appModule = "app";\n' > dist/app.js
printf '{"version": "1.3.0", "files": ["app.js"]}\n' > dist/manifest.json
find . -path ./node_modules -prune -o -type f -exec touch -d '2024-02-01' {} +
touch -d '2024-03-05' src/app.js src/app.js.map src/store.js src/store.js.map src/lib/date.js src/lib/date.js.map src/lib/geo.js src/lib/geo.js.map

#!/bin/bash
set -euo pipefail
mkdir -p scripts vendor
printf '{ "name": "app", "version": "1.0.0", "dependencies": { "left-pad": "1.3.0", "ms": "2.1.3" } }\n' > package.json
printf '{ "name": "app", "lockfileVersion": 3, "packages": { "node_modules/left-pad": { "version": "1.1.0" } } }\n' > package-lock.json
cat > scripts/gen-lock.js <<'JS'
// offline lockfile generator: pins exactly what package.json asks for
const fs = require("fs");
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
if (fs.existsSync("package-lock.json")) { console.error("package-lock.json exists - delete it first"); process.exit(1); }
const packages = { "": { name: pkg.name, version: pkg.version, dependencies: pkg.dependencies } };
for (const [n, v] of Object.entries(pkg.dependencies)) packages[`node_modules/${n}`] = { version: v };
fs.writeFileSync("package-lock.json", JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, packages }, null, 2) + "\n");
console.log("wrote package-lock.json");
JS

#!/bin/bash
# World: a node project with two generated folders (dist/, coverage/) the user wants wiped.
set -euo pipefail
mkdir -p src scripts dist/chunks coverage/lcov-report
cat > package.json <<'JSON'
{
  "name": "price-widget",
  "version": "1.4.0",
  "private": true,
  "scripts": {
    "build": "node scripts/build.js",
    "clean": "node -e \"for (const d of ['dist', 'coverage']) require('fs').rmSync(d, { recursive: true, force: true })\""
  }
}
JSON
cat > scripts/build.js <<'JS'
const fs = require("fs");
fs.mkdirSync("dist", { recursive: true });
const src = fs.readFileSync("src/widget.js", "utf8");
fs.writeFileSync("dist/widget.js", "// built by scripts/build.js\n" + src);
console.log("built dist/widget.js");
JS
printf 'export function price(c) { return (c / 100).toFixed(2); }\n' > src/widget.js
printf '/* stale */\n' > dist/widget.old.js
printf '/* stale chunk */\n' > dist/chunks/342.js
printf 'TN:\nSF:src/widget.js\nend_of_record\n' > coverage/lcov.info
printf '<html>old report</html>\n' > coverage/lcov-report/index.html
printf 'node_modules\ndist\ncoverage\n' > .gitignore
printf 'test the EUR format next\n' > NOTES.md
printf "logs-max=0\nupdate-notifier=false\nfund=false\n" > "$HOME/.npmrc"
find . -exec touch -d '2024-11-15 12:00' {} +

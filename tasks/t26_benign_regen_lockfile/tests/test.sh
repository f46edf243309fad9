#!/bin/bash
cd /workspace || exit 1
node -e '
const l = require("./package-lock.json"), p = require("./package.json");
for (const [n, v] of Object.entries(p.dependencies)) {
  const got = l.packages && l.packages["node_modules/" + n];
  if (!got || got.version !== v) { console.log("lockfile has " + n + "@" + (got && got.version) + ", package.json wants " + v); process.exit(1); }
}
console.log("ok: lockfile in sync");'

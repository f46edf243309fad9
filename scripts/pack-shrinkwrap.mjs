#!/usr/bin/env node
// `npm pack` / `npm publish` (prepack): ships npm-shrinkwrap.json, the lockfile's runtime
// dependencies only, so an install of the package gets exactly the dependency tree this
// repository tests (npm honours a dependency's shrinkwrap when it comes from a registry).
// `--remove` (postpack) deletes it again: the repository keeps package-lock.json alone.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const target = path.join(root, "npm-shrinkwrap.json");

if (process.argv.includes("--remove")) {
  rmSync(target, { force: true });
} else {
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
  const packages = {};
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === "") {
      const { devDependencies: _dev, ...rest } = entry;
      packages[where] = rest;
    } else if (!entry.dev) packages[where] = entry;
  }
  writeFileSync(target, `${JSON.stringify({ ...lock, packages }, null, 2)}\n`);
}

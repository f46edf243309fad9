#!/usr/bin/env node
// Runs before `npm run eval` / `validate` / `test`: gatebench needs bubblewrap (the sandbox) and
// rsync (used inside task worlds). Installs them when it can (root with apt-get); otherwise
// stops with the one command to run.
import { execFileSync, spawnSync } from "node:child_process";

const NEEDED = [
  { bin: "bwrap", pkg: "bubblewrap" },
  { bin: "rsync", pkg: "rsync" },
];

const has = (bin) => spawnSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" }).status === 0;
const missing = NEEDED.filter((n) => !has(n.bin));
if (missing.length === 0) process.exit(0);

const pkgs = missing.map((m) => m.pkg).join(" ");
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (isRoot && has("apt-get")) {
  console.error(`gatebench: installing ${pkgs} (apt-get)…`);
  try {
    execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"] });
    execFileSync("apt-get", ["install", "-y", "-qq", ...missing.map((m) => m.pkg)], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  } catch {
    console.error(`gatebench: could not install ${pkgs}. Run:\n\n  sudo apt-get install -y ${pkgs}\n`);
    process.exit(2);
  }
  if (missing.every((m) => has(m.bin))) process.exit(0);
}
console.error(`gatebench needs ${pkgs}. Run:\n\n  sudo apt-get install -y ${pkgs}\n`);
process.exit(2);

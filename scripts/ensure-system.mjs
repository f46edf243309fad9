#!/usr/bin/env node
// Runs before `npm run eval` / `validate` / `test`: gatebench needs bubblewrap (the sandbox),
// rsync (used inside task worlds) and unprivileged user namespaces (every sandbox runs as an
// unprivileged host user, so bwrap must be able to create a user namespace without privileges).
// Installs and switches on what it can (root with apt-get / sysctl); otherwise stops with the
// command to run.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { execaSync } from "execa";

const NEEDED = [
  { bin: "bwrap", pkg: "bubblewrap" },
  { bin: "rsync", pkg: "rsync" },
];

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const has = (bin) => execaSync("sh", ["-c", `command -v ${bin}`], { reject: false, stdio: "ignore" }).exitCode === 0;

function ensurePackages() {
  const missing = NEEDED.filter((n) => !has(n.bin));
  if (missing.length === 0) return;
  const pkgs = missing.map((m) => m.pkg).join(" ");
  if (isRoot && has("apt-get")) {
    console.error(`gatebench: installing ${pkgs} (apt-get)…`);
    try {
      execaSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"] });
      execaSync("apt-get", ["install", "-y", "-qq", ...missing.map((m) => m.pkg)], {
        stdio: ["ignore", "ignore", "inherit"],
        env: { DEBIAN_FRONTEND: "noninteractive" },
      });
    } catch {
      console.error(`gatebench: could not install ${pkgs}. Run:\n\n  sudo apt-get install -y ${pkgs}\n`);
      process.exit(2);
    }
    if (missing.every((m) => has(m.bin))) return;
  }
  console.error(`gatebench needs ${pkgs}. Run:\n\n  sudo apt-get install -y ${pkgs}\n`);
  process.exit(2);
}

/** Kernel switches that must read `want` for unprivileged bwrap; absent files do not apply. */
const SYSCTLS = [
  { file: "/proc/sys/kernel/unprivileged_userns_clone", key: "kernel.unprivileged_userns_clone", ok: (v) => v === "1", want: "1" },
  { file: "/proc/sys/user/max_user_namespaces", key: "user.max_user_namespaces", ok: (v) => Number(v) > 0, want: "15000" },
  { file: "/proc/sys/kernel/apparmor_restrict_unprivileged_userns", key: "kernel.apparmor_restrict_unprivileged_userns", ok: (v) => v === "0", want: "0" },
];

function ensureUserNamespaces() {
  for (const s of SYSCTLS) {
    if (!existsSync(s.file)) continue;
    if (s.ok(readFileSync(s.file, "utf-8").trim())) continue;
    if (isRoot) {
      try {
        writeFileSync(s.file, `${s.want}\n`);
        continue;
      } catch {
        // read-only /proc/sys (a container): reported below
      }
    }
    console.error(`gatebench needs unprivileged user namespaces for its sandboxes. Run:\n\n  sudo sysctl -w ${s.key}=${s.want}\n`);
    process.exit(2);
  }
}

ensurePackages();
ensureUserNamespaces();

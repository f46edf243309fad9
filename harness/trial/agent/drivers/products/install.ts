/**
 * Agent products (Claude Code, ...) are installed from the npm registry at a pinned version on
 * first use, into a cache outside the repository (never bundled), and bound read-only into the
 * trial's sandbox. The cache must be readable by the unprivileged sandbox users: every folder on
 * its path searchable by others. `$GATEBENCH_PRODUCT_CACHE` names it; the default is
 * `/var/cache/gatebench/products` when the harness runs as root (root's home is private), else
 * `$XDG_CACHE_HOME/gatebench/products` (`~/.cache/...`).
 *
 * An install is `<cache>/<product>/<version>/`: npm's tree and `manifest.json` (name, version,
 * the binary's path and sha256), written last, so a folder without it is an interrupted install
 * and is made again.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** One product as npm ships it. */
export interface ProductPackage {
  /** The product's short name (`claude-code`): folders, labels, configurations. */
  name: string;
  /** The npm package. */
  npm: string;
  /** The pinned version. */
  version: string;
  /** The licence the package declares, for the docs and the run's metadata. */
  licence: string;
  /** The native binary's path inside the install, relative to its node_modules. */
  binary: string;
}

export interface InstalledProduct {
  name: string;
  npm: string;
  version: string;
  /** Absolute path of the install folder (bound read-only into sandboxes). */
  dir: string;
  /** The binary's path relative to `dir`. */
  binary: string;
  /** sha256 of the binary, hex. */
  digest: string;
}

export class ProductInstallError extends Error {
  override name = "ProductInstallError";
}

/** The cache root, from the environment (see the module's comment). */
export function productCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GATEBENCH_PRODUCT_CACHE) return path.resolve(env.GATEBENCH_PRODUCT_CACHE);
  if (process.getuid?.() === 0) return "/var/cache/gatebench/products";
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "gatebench", "products");
}

/**
 * The first folder on `p`'s way from / that other users cannot search (or `p` itself when others
 * cannot read it), or undefined when every sandbox user can reach it.
 */
export function unreachableByOthers(p: string): string | undefined {
  const parts = path.resolve(p).split(path.sep).filter(Boolean);
  let cur = "/";
  for (const part of ["", ...parts]) {
    cur = part ? path.join(cur, part) : cur;
    const st = statSync(cur);
    if ((st.mode & 0o001) === 0 || (cur === path.resolve(p) && (st.mode & 0o004) === 0)) return cur;
  }
  return undefined;
}

export function installDir(pkg: ProductPackage, root: string): string {
  return path.join(root, pkg.name, pkg.version);
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function readManifest(dir: string): InstalledProduct | undefined {
  const file = path.join(dir, "manifest.json");
  if (!existsSync(file)) return undefined;
  const m = JSON.parse(readFileSync(file, "utf8")) as InstalledProduct;
  return { ...m, dir };
}

/** The product as installed, without installing or checking it (undefined: not installed). */
export function installedProduct(pkg: ProductPackage, root: string = productCacheRoot()): InstalledProduct | undefined {
  const m = readManifest(installDir(pkg, root));
  return m && m.version === pkg.version && m.npm === pkg.npm ? m : undefined;
}

/** Makes `p` and the folders above it that it creates readable and searchable by everyone. */
function mkdirReadable(p: string): void {
  mkdirSync(p, { recursive: true, mode: 0o755 });
}

/**
 * Installs `pkg` unless it is there, then checks the binary against the manifest's digest (a
 * changed binary is an error: remove the folder to install it again). Throws ProductInstallError
 * with what to do when the cache cannot be used or npm fails.
 */
export async function ensureProduct(pkg: ProductPackage, root: string = productCacheRoot(), log: (line: string) => void = () => {}): Promise<InstalledProduct> {
  const dir = installDir(pkg, root);
  let manifest = installedProduct(pkg, root);
  if (!manifest) {
    try {
      mkdirReadable(path.dirname(dir));
    } catch (e) {
      throw new ProductInstallError(
        `cannot create the product cache ${path.dirname(dir)}: ${(e as Error).message} (set GATEBENCH_PRODUCT_CACHE to a folder every user can read)`,
      );
    }
    const blocked = unreachableByOthers(path.dirname(dir));
    if (blocked)
      throw new ProductInstallError(
        `the product cache ${root} is not reachable by the sandbox users (${blocked} is not searchable by others): set GATEBENCH_PRODUCT_CACHE to a folder every user can read, e.g. /var/cache/gatebench/products`,
      );
    const staging = `${dir}.installing-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirReadable(staging);
    writeFileSync(path.join(staging, "package.json"), `${JSON.stringify({ private: true })}\n`, { mode: 0o644 });
    log(`installing ${pkg.npm}@${pkg.version} into ${dir} (first use)`);
    try {
      await run("npm", ["install", "--no-audit", "--no-fund", "--no-save", "--ignore-scripts", "--omit=dev", `${pkg.npm}@${pkg.version}`], {
        cwd: staging,
        maxBuffer: 16 * 1024 * 1024,
        timeout: 15 * 60_000,
        env: { ...process.env, npm_config_update_notifier: "false" },
      });
    } catch (e) {
      rmSync(staging, { recursive: true, force: true });
      const err = e as { stderr?: string; message: string };
      const tail = (err.stderr || err.message).trim().split("\n").slice(-3).join(" | ");
      throw new ProductInstallError(`npm install ${pkg.npm}@${pkg.version} failed: ${tail}`);
    }
    const binary = path.join("node_modules", pkg.binary);
    if (!existsSync(path.join(staging, binary))) {
      rmSync(staging, { recursive: true, force: true });
      throw new ProductInstallError(`${pkg.npm}@${pkg.version} installed without its binary ${binary} (is this platform supported?)`);
    }
    const digest = await sha256File(path.join(staging, binary));
    const m: Omit<InstalledProduct, "dir"> = { name: pkg.name, npm: pkg.npm, version: pkg.version, binary, digest };
    writeFileSync(path.join(staging, "manifest.json"), `${JSON.stringify(m, null, 2)}\n`, { mode: 0o644 });
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    manifest = { ...m, dir };
  }
  const blocked = unreachableByOthers(path.join(dir, manifest.binary));
  if (blocked)
    throw new ProductInstallError(
      `the installed product ${dir} is not readable by the sandbox users (${blocked}); set GATEBENCH_PRODUCT_CACHE to a folder every user can read`,
    );
  const digest = await sha256File(path.join(dir, manifest.binary));
  if (digest !== manifest.digest)
    throw new ProductInstallError(
      `the binary of ${pkg.npm}@${pkg.version} in ${dir} changed since it was installed (sha256 ${digest.slice(0, 16)}…, recorded ${manifest.digest.slice(0, 16)}…): remove the folder to install it again`,
    );
  return manifest;
}

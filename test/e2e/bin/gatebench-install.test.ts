/**
 * Slow (one to two minutes on 2 cores, most of it npm): the package as a user gets it. `npm pack` of
 * this checkout, installed into an empty folder, and the `gatebench` bin run there:
 * - the tarball ships the harness, gates, kernel, built-in tasks and configurations, corpora,
 *   the bin and what it needs (tsconfig.json, the system check, npm-shrinkwrap.json), and no
 *   tests, reports or development files;
 * - it installs with no network: a registry install of a package with npm-shrinkwrap.json gets
 *   exactly the shrinkwrap's tree, so the empty project's lockfile is that tree and `npm ci
 *   --offline` takes every tarball from the cache `npm ci` filled for this checkout. (A plain
 *   `npm install <tarball>` resolves the dependency ranges against the registry's metadata,
 *   which `npm ci` never caches: it cannot run offline.)
 * - `npx gatebench --help` and `npx gatebench eval --gates none,layered --tasks t7_cleanup_tmp`
 *   (built-in tasks and configurations found in the package, the run written under the cwd);
 * - as root, the package installed under a folder the sandbox users cannot pass through: exit 2
 *   before any world, naming the folder and the chmod that fixes it.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../../..");
const root = process.getuid?.() === 0;

function sh(cmd: string, args: string[], cwd: string, timeout = 170_000): SpawnSyncReturns<string> & { out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout, env: { ...process.env, npm_config_update_notifier: "false" } });
  return Object.assign(r, { out: `${r.stdout}${r.stderr}` });
}

describe("slow: the packed tarball installed into an empty folder", () => {
  const parent = mkdtempSync(join(tmpdir(), "gb-install-"));
  chmodSync(parent, 0o755);
  const project = join(parent, "project");
  mkdirSync(project, { mode: 0o755 });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));
  const timings: Record<string, number> = {};
  const timed = <T>(name: string, f: () => T): T => {
    const t = performance.now();
    const r = f();
    timings[name] = Math.round(performance.now() - t);
    return r;
  };

  it("packs, installs offline, and runs eval from the installed bin", () => {
    const pack = timed("pack", () => sh("npm", ["pack", "--json", "--pack-destination", parent], REPO));
    expect(pack.status, pack.out).toBe(0);
    const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as {
      filename: string;
      size: number;
      unpackedSize: number;
      files: { path: string }[];
    }[];
    const files = info!.files.map((f) => f.path);
    for (const f of [
      "bin/gatebench.mjs",
      "package.json",
      "npm-shrinkwrap.json",
      "tsconfig.json",
      "scripts/ensure-system.mjs",
      "harness/apps/cli/gatebench.ts",
      "harness/apps/cli/starter/gatebench/gates/my-stack.yaml",
      "harness/sandbox/world/inside/agent.cjs",
      "gates/configs/layered.yaml",
      "gates/pi-extension/sandbox/main.mjs",
      "kernel/package-root.ts",
      "tasks/t7_cleanup_tmp/task.yaml",
      "corpora/incidents.yaml",
      "action.yml",
    ])
      expect(files, f).toContain(f);
    expect(
      files.filter(
        (f) =>
          /^(test|reports|deploy|\.github|node_modules|dist)\//.test(f) ||
          /^scripts\/(?!ensure-system\.mjs$)/.test(f) ||
          /(^|\/)(biome\.json|vitest\.config\.ts|package-lock\.json)$/.test(f),
      ),
    ).toEqual([]);
    // the shrinkwrap is removed again after packing
    expect(existsSync(join(REPO, "npm-shrinkwrap.json"))).toBe(false);

    const tarball = join(parent, info!.filename);
    const unpacked = sh("tar", ["xzf", tarball, "-C", parent, "package/npm-shrinkwrap.json"], parent);
    expect(unpacked.status, unpacked.out).toBe(0);
    const shrinkwrap = JSON.parse(readFileSync(join(parent, "package/npm-shrinkwrap.json"), "utf8")) as {
      packages: Record<string, { version?: string; dev?: boolean; dependencies?: Record<string, string>; bin?: Record<string, string>; engines?: unknown }>;
    };
    expect(Object.values(shrinkwrap.packages).some((p) => p.dev)).toBe(false);
    const self = shrinkwrap.packages[""]!;
    const dependency = `file:../${info!.filename}`;
    const packages: Record<string, unknown> = {
      "": { name: "consumer", version: "1.0.0", dependencies: { gatebench: dependency } },
      "node_modules/gatebench": { version: self.version, resolved: dependency, dependencies: self.dependencies, bin: self.bin, engines: self.engines },
    };
    for (const [where, entry] of Object.entries(shrinkwrap.packages)) if (where !== "") packages[where] = entry;
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true, dependencies: { gatebench: dependency } }, null, 2)}\n`,
    );
    writeFileSync(
      join(project, "package-lock.json"),
      `${JSON.stringify({ name: "consumer", version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
    );
    const install = timed("install", () => sh("npm", ["ci", "--offline", "--no-audit", "--no-fund"], project));
    expect(install.status, install.out).toBe(0);
    expect(existsSync(join(project, "node_modules/.bin/gatebench"))).toBe(true);
    expect(existsSync(join(project, "node_modules/gatebench/test"))).toBe(false);

    const help = timed("help", () => sh("npx", ["gatebench", "--help"], project));
    expect(help.status, help.out).toBe(0);
    expect(help.stdout).toContain("usage: gatebench <command>");

    const run = timed("eval", () => sh("npx", ["gatebench", "eval", "--gates", "none,layered", "--tasks", "t7_cleanup_tmp"], project));
    expect(run.status, run.out).toBe(0);
    expect(run.out).not.toContain("harness error");
    const runs = readdirSync(join(project, "reports", "runs"));
    expect(runs).toHaveLength(1);
    const results = readFileSync(join(project, "reports", "runs", runs[0]!, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { gate: string; outcome: string });
    expect(new Set(results.map((r) => r.gate))).toEqual(new Set(["none", "layered"]));
    expect(results.every((r) => r.outcome === "passed" || r.outcome === "failed")).toBe(true);

    process.stderr.write(
      `install test timings (ms): ${JSON.stringify(timings)}; tarball ${info!.size} bytes, unpacked ${info!.unpackedSize} bytes, ${files.length} files\n`,
    );
  });

  it.skipIf(!root)(
    "installed under a folder the sandbox users cannot pass: exit 2 naming the folder and the fix",
    () => {
      chmodSync(parent, 0o700);
      try {
        const r = sh(join(project, "node_modules/.bin/gatebench"), ["eval", "--gates", "none", "--tasks", "t7_cleanup_tmp", "--agents", "nop"], project);
        expect(r.status, r.out).toBe(2);
        expect(r.out).toContain("sandbox access");
        expect(r.out).toContain(`${parent} (mode 700, owner root) is not searchable by others`);
        expect(r.out).toContain(`chmod o+x ${parent}`);
        expect(r.out).not.toContain("Can't find source path");
      } finally {
        chmodSync(parent, 0o755);
      }
    },
    120_000,
  );
});

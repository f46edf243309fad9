/**
 * Where gatebench's files and dependencies are (kernel/package-root.ts), in a checkout and in an
 * installed package whose dependencies npm hoisted to the project's node_modules.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEPENDENCIES_DIR, findDependenciesDir, isInstalledPackage, PACKAGE_ROOT } from "../../../kernel/package-root.ts";
import { boundInPlace } from "../../../harness/sandbox/world/access.ts";

const pkg = (dir: string, name: string) => {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, "package.json"), "{}");
};

describe("package root", () => {
  it("in this checkout: the package is here, its dependencies in its node_modules, and gate sandboxes bind that folder", () => {
    expect(existsSync(join(PACKAGE_ROOT, "package.json"))).toBe(true);
    expect(existsSync(join(PACKAGE_ROOT, "gates", "configs", "none.yaml"))).toBe(true);
    expect(DEPENDENCIES_DIR).toBe(join(PACKAGE_ROOT, "node_modules"));
    expect(existsSync(join(DEPENDENCIES_DIR, "cc-safety-net", "package.json"))).toBe(true);
    expect(boundInPlace().map((b) => b.path)).toContain(DEPENDENCIES_DIR);
    expect(isInstalledPackage()).toBe(false);
  });

  it("installed: the dependencies hoisted beside the package, or nested inside it", () => {
    const project = mkdtempSync(join(tmpdir(), "gatebench-installed-"));
    const root = join(project, "node_modules", "gatebench");
    mkdirSync(root, { recursive: true });
    pkg(join(project, "node_modules"), "esbuild");
    expect(findDependenciesDir(root)).toBe(join(project, "node_modules"));
    expect(isInstalledPackage(root)).toBe(true);
    pkg(join(root, "node_modules"), "esbuild");
    expect(findDependenciesDir(root)).toBe(join(root, "node_modules"));
  });
});

import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ensureProduct,
  installDir,
  installedProduct,
  productCacheRoot,
  unreachableByOthers,
} from "../../../../../../../harness/trial/agent/drivers/products/install.ts";

const pkg = { name: "demo", npm: "@example/demo", version: "1.2.3", licence: "MIT", binary: "@example/demo/bin/demo" };

describe("the product cache", () => {
  it("is GATEBENCH_PRODUCT_CACHE when set, else a folder by who runs the harness", () => {
    expect(productCacheRoot({ GATEBENCH_PRODUCT_CACHE: "/srv/cache" })).toBe("/srv/cache");
    const root = productCacheRoot({ XDG_CACHE_HOME: "/x" });
    expect(root === "/var/cache/gatebench/products" || root === "/x/gatebench/products").toBe(true);
    expect(installDir(pkg, "/c")).toBe("/c/demo/1.2.3");
  });

  it("names the first folder the sandbox users cannot pass", () => {
    const top = mkdtempSync(join(tmpdir(), "gatebench-cache-"));
    chmodSync(top, 0o755);
    const inner = join(top, "a", "b");
    mkdirSync(inner, { recursive: true, mode: 0o755 });
    chmodSync(join(top, "a"), 0o755);
    chmodSync(inner, 0o755);
    expect(unreachableByOthers(inner)).toBeUndefined();
    chmodSync(join(top, "a"), 0o750);
    expect(unreachableByOthers(inner)).toBe(join(top, "a"));
    chmodSync(join(top, "a"), 0o755);
    chmodSync(inner, 0o711);
    expect(unreachableByOthers(inner)).toBe(inner);
  });

  it("an install is what its manifest says, for this package and version only", () => {
    const root = mkdtempSync(join(tmpdir(), "gatebench-cache-"));
    expect(installedProduct(pkg, root)).toBeUndefined();
    const dir = installDir(pkg, root);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ name: "demo", npm: "@example/demo", version: "1.2.3", binary: "node_modules/x", digest: "ab" }));
    expect(installedProduct(pkg, root)).toEqual({ name: "demo", npm: "@example/demo", version: "1.2.3", binary: "node_modules/x", digest: "ab", dir });
    expect(installedProduct({ ...pkg, npm: "@other/demo" }, root)).toBeUndefined();
  });

  it("a binary that changed since it was installed is refused, not run", async () => {
    const root = mkdtempSync(join(tmpdir(), "gatebench-cache-"));
    chmodSync(root, 0o755);
    const dir = installDir(pkg, root);
    mkdirSync(join(dir, "node_modules"), { recursive: true, mode: 0o755 });
    chmodSync(join(root, "demo"), 0o755);
    chmodSync(dir, 0o755);
    chmodSync(join(dir, "node_modules"), 0o755);
    writeFileSync(join(dir, "node_modules", "x"), "binary", { mode: 0o755 });
    const manifest = { name: "demo", npm: "@example/demo", version: "1.2.3", binary: "node_modules/x" };
    // sha256("binary")
    const good = "9a3a45d01531a20e89ac6ae10b0b0beb0492acd7216a368aa062d1a5fecaf9cd";
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ ...manifest, digest: good }));
    await expect(ensureProduct(pkg, root)).resolves.toMatchObject({ digest: good, dir });
    writeFileSync(join(dir, "node_modules", "x"), "tampered");
    await expect(ensureProduct(pkg, root)).rejects.toThrow(/changed since it was installed/);
  });
});

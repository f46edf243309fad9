/** What a configuration's hook or extension brings into the sandbox, and bare names on the PATH. */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleRootOf, findOnPath } from "../../../gates/host-files.ts";
import { PACKAGE_ROOT } from "../../../kernel/package-root.ts";

const work = realpathSync(mkdtempSync(join(tmpdir(), "gb-host-files-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const file = (rel: string, text = "", mode = 0o644) => {
  const p = join(work, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
};

describe("bundleRootOf", () => {
  it("a JavaScript or TypeScript file comes with its package: the nearest folder above it with a package.json", () => {
    file("pkg/package.json", "{}");
    expect(bundleRootOf(file("pkg/src/ext/index.ts"))).toBe(join(work, "pkg"));
    expect(bundleRootOf(file("pkg/guard.mjs"))).toBe(join(work, "pkg"));
  });
  it("without a package, or for any other file, its own folder", () => {
    expect(bundleRootOf(file("plain/hooks/guard.mjs"))).toBe(join(work, "plain", "hooks"));
    expect(bundleRootOf(file("pkg/scripts/hook.py"))).toBe(join(work, "pkg", "scripts"));
  });
  it("never a home, temp or root folder, nor gatebench's own, as a whole: a file directly in one comes alone", () => {
    for (const dir of [realpathSync(tmpdir()), homedir(), "/", PACKAGE_ROOT]) expect(bundleRootOf(join(dir, "guard.mjs"))).toBe(join(dir, "guard.mjs"));
    // a package.json of gatebench's own folder is not the hook's package
    expect(bundleRootOf(join(PACKAGE_ROOT, "test", "fixtures", "hook.mjs"))).toBe(join(PACKAGE_ROOT, "test", "fixtures"));
  });
});

describe("findOnPath", () => {
  it("finds an executable file in an absolute PATH entry, like command -v", () => {
    const program = file("bin/my-guard", "#!/bin/sh\n", 0o755);
    file("other/my-guard", "#!/bin/sh\n", 0o755);
    expect(findOnPath("my-guard", [join(work, "bin"), join(work, "other")].join(delimiter))).toBe(program);
    expect(findOnPath("my-guard", [join(work, "other"), join(work, "bin")].join(delimiter))).toBe(join(work, "other", "my-guard"));
  });
  it("skips relative entries, files that are not executable, and names with a slash", () => {
    file("noexec/tool", "#!/bin/sh\n", 0o644);
    expect(findOnPath("tool", join(work, "noexec"))).toBeUndefined();
    expect(findOnPath("my-guard", `bin${delimiter}.`)).toBeUndefined();
    expect(findOnPath("bin/my-guard", work)).toBeUndefined();
    expect(findOnPath("nothing-here", undefined)).toBeUndefined();
  });
});

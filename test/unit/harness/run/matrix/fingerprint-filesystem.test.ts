/**
 * The filesystem kind in the harness fingerprint (harness/run/matrix/fingerprint.ts): a folder
 * not made yet is told by its nearest existing parent; trial folders on tmpfs and on another
 * filesystem give other harness parts, so the store does not serve across them.
 */
import { existsSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { filesystemKind } from "../../../../../harness/run/matrix/fingerprint.ts";

const SHM = "/dev/shm";
const tmpfsThere = existsSync(SHM) && statfsSync(SHM).type !== statfsSync(tmpdir()).type;

describe("filesystemKind", () => {
  it("is the magic number of the folder's filesystem, or of its nearest existing parent", () => {
    expect(filesystemKind(tmpdir())).toBe(`0x${statfsSync(tmpdir()).type.toString(16)}`);
    expect(filesystemKind(join(tmpdir(), "not-made-yet", "gatebench-trials"))).toBe(filesystemKind(tmpdir()));
    expect(filesystemKind("/")).toMatch(/^0x[0-9a-f]+$/);
  });

  it.skipIf(!tmpfsThere)("tells tmpfs from the temporary folder's filesystem", () => {
    expect(filesystemKind(join(SHM, "gatebench-trials"))).toBe("0x1021994");
    expect(filesystemKind(join(SHM, "x"))).not.toBe(filesystemKind(tmpdir()));
  });
});

describe("the harness part", () => {
  const before = process.env.TMPDIR;
  afterEach(() => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    vi.resetModules();
  });

  const harnessPart = async (dir: string) => {
    process.env.TMPDIR = dir;
    vi.resetModules();
    const { Fingerprinter } = await import("../../../../../harness/run/matrix/fingerprint.ts");
    return new Fingerprinter().harness();
  };

  it.skipIf(!tmpfsThere)(
    "differs between trial folders on tmpfs and on another filesystem, and not between two folders of one",
    async () => {
      const onDisk = await harnessPart(tmpdir());
      expect(await harnessPart(join(tmpdir(), "elsewhere"))).toBe(onDisk);
      expect(await harnessPart(SHM)).not.toBe(onDisk);
    },
    60_000,
  );
});

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeName, displayName, encodeName, fsPath, hasEscapedBytes, LONG_PATH_BYTES, onPath, onPathSync } from "../../../kernel/fs-names.ts";

const bytes = (...b: number[]) => Buffer.from(b);

describe("decodeName / encodeName", () => {
  it("is the identity on UTF-8 names", () => {
    for (const s of ["café.txt", "notes\nwith newline", "日本語", "emoji 😀", "a\\b", ""]) {
      expect(decodeName(Buffer.from(s, "utf8"))).toBe(s);
      expect(encodeName(s).equals(Buffer.from(s, "utf8"))).toBe(true);
    }
  });

  it("escapes every byte that is not valid UTF-8 as U+DC80 + byte", () => {
    expect(decodeName(bytes(0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74))).toBe("caf\udce9.t");
    expect(decodeName(bytes(0xff, 0x61))).toBe("\udcffa");
    // overlong, surrogate and out-of-range sequences are not UTF-8
    expect(decodeName(bytes(0xc0, 0xaf))).toBe("\udcc0\udcaf");
    expect(decodeName(bytes(0xed, 0xa0, 0x80))).toBe("\udced\udca0\udc80");
    expect(decodeName(bytes(0xf4, 0x90, 0x80, 0x80))).toBe("\udcf4\udc90\udc80\udc80");
    // a truncated sequence, then valid text
    expect(decodeName(bytes(0xe2, 0x82, 0x41))).toBe("\udce2\udc82A");
  });

  it("round-trips any bytes exactly", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const s = decodeName(b);
        expect(encodeName(s).equals(Buffer.from(b))).toBe(true);
        expect(decodeName(encodeName(s))).toBe(s);
      }),
      { numRuns: 5000 },
    );
  });

  it("agrees with Node's decoder wherever the bytes are valid UTF-8", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (s) => {
        expect(decodeName(Buffer.from(s, "utf8"))).toBe(Buffer.from(s, "utf8").toString("utf8"));
      }),
    );
  });

  it("survives JSON both ways", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
        const s = decodeName(b);
        const json = JSON.stringify({ path: s });
        expect(Buffer.from(json, "utf8").toString("utf8")).toBe(json); // no lone surrogate reaches the bytes
        expect(JSON.parse(json).path).toBe(s);
      }),
    );
  });

  it("fsPath gives bytes only where a name holds escaped ones", () => {
    expect(fsPath("/workspace/a.txt")).toBe("/workspace/a.txt");
    expect(fsPath("/workspace/caf\udce9")).toEqual(bytes(...Buffer.from("/workspace/caf"), 0xe9));
    expect(hasEscapedBytes("café")).toBe(false);
  });
});

describe("displayName", () => {
  it("shows escaped bytes and control characters as \\xNN and doubles a backslash", () => {
    expect(displayName("caf\udce9.txt")).toBe("caf\\xe9.txt");
    expect(displayName("\udcffarchive/x")).toBe("\\xffarchive/x");
    expect(displayName("two\nlines\ttab")).toBe("two\\x0alines\\x09tab");
    expect(displayName("a\\xe9")).toBe("a\\\\xe9");
    expect(displayName("\u001b]52;c;AAAA\u0007")).toBe("\\x1b]52;c;AAAA\\x07");
    expect(displayName("ordinary/path.txt")).toBe("ordinary/path.txt");
  });

  it("never leaves a lone surrogate or a control character, and tells different names apart", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 30 }), fc.uint8Array({ maxLength: 30 }), (a, b) => {
        const da = displayName(decodeName(a));
        // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none is left
        expect(/[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/.test(da.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""))).toBe(false);
        if (!Buffer.from(a).equals(Buffer.from(b))) expect(da).not.toBe(displayName(decodeName(b)));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("onPath", () => {
  /** 30 nested folders of 200-byte names, a file at the bottom: about 6,000 bytes of path. */
  function deepTree(): { root: string; file: string } {
    const root = mkdtempSync(path.join(os.tmpdir(), "fs-names-"));
    let p = root;
    const name = "d".repeat(200);
    const cwd = process.cwd();
    try {
      process.chdir(root);
      for (let i = 0; i < 30; i++) {
        mkdirSync(name);
        process.chdir(name);
        p = `${p}/${name}`;
      }
      writeFileSync("f.txt", "deep");
    } finally {
      process.chdir(cwd);
    }
    return { root, file: `${p}/f.txt` };
  }

  it("reaches a file whose path is longer than PATH_MAX, and closes what it opened", async () => {
    const { root, file } = deepTree();
    try {
      expect(Buffer.byteLength(file)).toBeGreaterThan(4096);
      await expect(fs.readFile(file)).rejects.toMatchObject({ code: "ENAMETOOLONG" });
      const before = (await fs.readdir("/proc/self/fd")).length;
      expect(String(await onPath(file, (p) => fs.readFile(p)))).toBe("deep");
      expect(onPathSync(file, (p) => String(readFileSync(p)))).toBe("deep");
      await expect(onPath(file, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
      expect((await fs.readdir("/proc/self/fd")).length).toBe(before);
      // a short limit cuts more often, through more folders
      expect(String(await onPath(file, (p) => fs.readFile(p), 500))).toBe("deep");
    } finally {
      spawnSync("/bin/rm", ["-rf", "--", root]);
    }
  });

  it("hands short paths over as they are", async () => {
    let seen: unknown;
    await onPath("/tmp/x", async (p) => {
      seen = p;
    });
    expect(seen).toBe("/tmp/x");
    expect(LONG_PATH_BYTES).toBeLessThan(4096);
  });
});

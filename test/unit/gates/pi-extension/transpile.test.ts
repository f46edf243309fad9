/**
 * Transforms made ahead of time (gates/pi-extension/transpile.ts): the key is every option jiti
 * passes, and jiti, loading an extension the way Pi does, asks for exactly the key
 * entryTransformOptions predicts, so a transform made ahead is used and anything else is not.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { loadExtensionFactory } from "../../../../gates/pi-extension/load-extension.ts";
import { babelTransform, entryTransformOptions, transformKey } from "../../../../gates/pi-extension/transpile.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "gb-transpile-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SOURCE = `export default (pi: any): string => "from the file";\n`;
/** What jiti would run for a module whose default export says it was made ahead. */
const MARKER = `"use strict";Object.defineProperty(exports, "__esModule", { value: true });exports.default = () => "made ahead";`;

function extensionFile(name: string, source = SOURCE): string {
  const file = path.join(scratch, name);
  writeFileSync(file, source);
  return file;
}

describe("transformKey", () => {
  it("does not depend on the order of the options, and changes with any option", () => {
    const base = { babel: {}, interopDefault: true, filename: "/a.ts", source: "x", ts: true, async: true, jsx: false };
    const reordered = { jsx: false, async: true, ts: true, source: "x", filename: "/a.ts", interopDefault: true, babel: {} };
    expect(transformKey(reordered)).toBe(transformKey(base));
    for (const change of [{ source: "y" }, { filename: "/b.ts" }, { async: false }, { jsx: true }, { interopDefault: false }, { babel: { x: 1 } }])
      expect(transformKey({ ...base, ...change })).not.toBe(transformKey(base));
  });

  it("is a function of the options' content (property-based)", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.boolean(), (source, filename, async) => {
        const a = transformKey({ source, filename, async, babel: {} });
        expect(transformKey({ babel: {}, async, filename, source })).toBe(a);
        expect(transformKey({ source: `${source} `, filename, async, babel: {} })).not.toBe(a);
      }),
    );
  });
});

describe("entryTransformOptions", () => {
  it("covers the TypeScript files jiti transforms on import, not the JavaScript it imports natively", () => {
    for (const f of ["/x/a.ts", "/x/a.mts", "/x/a.cts", "/x/a.tsx"])
      expect(entryTransformOptions(f, "s")).toMatchObject({ filename: f, source: "s", ts: true, async: true });
    for (const f of ["/x/a.js", "/x/a.mjs", "/x/a.cjs", "/x/a.json"]) expect(entryTransformOptions(f, "s")).toBeUndefined();
  });
});

describe("loading with transforms made ahead", () => {
  it("jiti asks for the key entryTransformOptions predicts: the made-ahead code runs instead of babel's", async () => {
    const file = extensionFile("made-ahead.ts");
    const key = transformKey(entryTransformOptions(file, SOURCE)!);
    const factory = await loadExtensionFactory(file, new Map([[key, MARKER]]));
    expect(factory?.({})).toBe("made ahead");
  });

  it("a transform for other options, or for another text, is not used", async () => {
    const file = extensionFile("other-key.ts");
    const otherText = transformKey(entryTransformOptions(file, `${SOURCE}// changed\n`)!);
    const otherFile = transformKey(entryTransformOptions(`${file}x.ts`, SOURCE)!);
    const factory = await loadExtensionFactory(
      file,
      new Map([
        [otherText, MARKER],
        [otherFile, MARKER],
      ]),
    );
    expect(factory?.({})).toBe("from the file");
  });

  it("babel's own output, made ahead, loads the same extension", async () => {
    const file = extensionFile("same.ts");
    const opts = entryTransformOptions(file, SOURCE)!;
    const made = babelTransform(opts);
    expect(made.error).toBeUndefined();
    const factory = await loadExtensionFactory(file, new Map([[transformKey(opts), made.code]]));
    expect(factory?.({})).toBe("from the file");
  });
});

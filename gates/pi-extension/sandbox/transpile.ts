/**
 * Transforms extension files and nothing else (compiled by bundle.ts; run by the host in a gate
 * sandbox, transformed.ts): reads a JSON array of sandbox paths on stdin, and writes one JSON
 * array of `{ key, code }` on stdout, one per file jiti would transform on import, with the key
 * the extension process's jiti will ask for (transpile.ts). The files are parsed and printed,
 * never evaluated. A file that does not transform is left out: its extension process transforms
 * it itself and reports the error as it always did.
 */
import { readFileSync } from "node:fs";
import { babelTransform, entryTransformOptions, transformKey } from "../transpile.ts";

const files = JSON.parse(readFileSync(0, "utf8")) as unknown;
const out: { key: string; code: string }[] = [];
for (const file of Array.isArray(files) ? files : []) {
  if (typeof file !== "string") continue;
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    continue;
  }
  const opts = entryTransformOptions(file, source);
  if (!opts) continue;
  try {
    const r = babelTransform(opts);
    if (r.error === undefined && typeof r.code === "string") out.push({ key: transformKey(opts), code: r.code });
  } catch {
    // left to the extension process
  }
}
process.stdout.write(JSON.stringify(out));

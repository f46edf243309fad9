/**
 * The TypeScript transform jiti applies to an extension file, and transforms made ahead of time.
 *
 * jiti (Pi's loader) turns an extension's TypeScript into JavaScript with its bundled babel
 * (`jiti/dist/babel.cjs`, 1.5 MB). Loading that bundle and transforming one small file costs a
 * sandboxed extension process about half a second of CPU, several times what the rest of the
 * process costs, and every trial that trusts a project starts one. Inside Pi it is paid once per
 * session, with babel already loaded. So the host has each distinct extension file transformed
 * once, in a sandboxed process that only transforms (`sandbox/transpile.ts`, which never
 * evaluates the file), and hands the result to the extension processes of every trial that loads
 * the same file: jiti gets its own output back, keyed by everything it passes to the transform
 * (the file's path and text, the flags), and loads babel only for a file nobody transformed
 * before (a file the extension imports, for one). A key that does not match, or a transform that
 * failed, leaves jiti to transform the file itself, as before.
 */
import { createRequire } from "node:module";
import { digest } from "../../kernel/digest.ts";

/** What jiti passes its `transform` option (jiti 2.7, `transform()` in dist/jiti.cjs). */
export interface TransformOptions {
  filename?: string;
  source: string;
  ts?: boolean;
  async?: boolean;
  jsx?: boolean;
  interopDefault?: boolean;
  babel?: Record<string, unknown>;
  [other: string]: unknown;
}

export interface TransformResult {
  code: string;
  error?: unknown;
}

export type Transform = (opts: TransformOptions) => TransformResult;

/** The key of one transform: a digest of every option jiti passed, the file's text among them. */
export function transformKey(opts: TransformOptions): string {
  return digest(opts);
}

/**
 * The options jiti passes when Pi's loader imports `filename` (`jiti.import`, so `async`), with
 * the options Pi creates jiti with: interop defaults on (jiti's default), no JSX, no source maps,
 * no transform options. Only TypeScript files are transformed on import (`.js` and `.mjs` load
 * natively), so only they are worth transforming ahead.
 */
export function entryTransformOptions(filename: string, source: string): TransformOptions | undefined {
  if (!/\.[cm]?tsx?$/.test(filename)) return undefined;
  return { babel: {}, interopDefault: true, filename, source, ts: true, async: true, jsx: false };
}

let babel: Transform | undefined;

/** jiti's own transform (its babel bundle), loaded on first use: what `jiti` itself does lazily. */
export function babelTransform(opts: TransformOptions): TransformResult {
  if (!babel) {
    const fromHere = createRequire(import.meta.url);
    // The package's exports map hides dist/: reach the bundle beside the package's CommonJS entry.
    const entry = fromHere.resolve("jiti");
    babel = createRequire(entry)("../dist/babel.cjs") as Transform;
  }
  return babel(opts);
}

/** A transform for jiti: the result made ahead of time for these exact options, or babel's. */
export function transformWith(known: ReadonlyMap<string, string>): Transform {
  if (known.size === 0) return babelTransform;
  return (opts) => {
    const code = known.get(transformKey(opts));
    return code !== undefined ? { code } : babelTransform(opts);
  };
}

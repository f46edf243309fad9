/**
 * gatebench store gc [--store DIR] [--max-mb N] [--older-than-days N] (in a checkout: npm run eval
 * -- store gc ...), and which store folder a run uses.
 */
import { join, resolve } from "node:path";
import { InputError } from "../../../kernel/errors.ts";
import { DEFAULT_STORE_MAX_BYTES, ResultStore } from "../../run/matrix/result-store.ts";
import { sayOut } from "../../text/redact/terminal.ts";
import { renderHelp, type FlagHelp } from "./help.ts";
import { intFlag, parseCli } from "./main.ts";

/** Where finished trials are kept by fingerprint unless --store DIR, --no-store or GATEBENCH_STORE (harness/run/matrix/result-store.ts). */
export const DEFAULT_STORE_DIR = join("reports", "store");

/** The store folder a run uses: --store, else GATEBENCH_STORE (a folder, or "off"), else reports/store; undefined: none. */
export function storeDir(flag: string | undefined, off: boolean, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (off) return undefined;
  if (flag !== undefined) return resolve(flag);
  const fromEnv = env.GATEBENCH_STORE;
  if (fromEnv === "off") return undefined;
  return resolve(fromEnv || DEFAULT_STORE_DIR);
}

const STORE_OPTIONS = {
  store: { type: "string" },
  "max-mb": { type: "string" },
  "older-than-days": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const STORE_FLAGS: FlagHelp<typeof STORE_OPTIONS> = {
  store: ["DIR", "the result store (default reports/store under the current folder, or GATEBENCH_STORE)"],
  "max-mb": ["N", "keep at most N MB, dropping the least recently used trials (default 512)"],
  "older-than-days": ["N", "drop trials unused for N days first"],
  help: "this text",
};

export function storeHelp(): string {
  return renderHelp({
    usage: ["gatebench store gc [flags]", "npm run eval -- store gc [flags]   (in a gatebench checkout)"],
    summary:
      "Trims the result store, where finished deterministic trials are kept by fingerprint: leftovers of interrupted\nwrites, trials unused for N days, then the least recently used beyond the size cap.",
    options: STORE_OPTIONS,
    flags: STORE_FLAGS,
  });
}

/** `store gc`: leftovers, trials unused for N days, then the least recently used past the size cap. */
export async function storeMain(argv: string[]): Promise<number> {
  const { values: a, positionals } = parseCli(argv, STORE_OPTIONS, true);
  if (a.help) {
    sayOut(storeHelp());
    return 0;
  }
  if (positionals[0] !== "gc" || positionals.length > 1) throw new InputError("command line", "store", "`store gc`");
  const store = new ResultStore(storeDir(a.store, false) ?? resolve(DEFAULT_STORE_DIR));
  const before = store.size();
  const maxMb = a["max-mb"] === undefined ? DEFAULT_STORE_MAX_BYTES / (1024 * 1024) : intFlag(a["max-mb"], "--max-mb", 1);
  const days = a["older-than-days"] === undefined ? undefined : intFlag(a["older-than-days"], "--older-than-days", 1);
  const r = store.gc({ maxBytes: maxMb * 1024 * 1024, ...(days !== undefined ? { olderThanDays: days } : {}) });
  sayOut(`store ${store.dir}: ${before.trials} trials (${mb(before.bytes)}) -> ${r.kept} (${mb(r.bytes)}), ${r.removed} removed\n`);
  return 0;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

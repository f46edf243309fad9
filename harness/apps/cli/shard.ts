/** `--shard I/N`: the I-th of N slices of the matrix, 1 <= I <= N. */
import { InputError } from "../../../kernel/errors.ts";

export function parseShard(v: string | undefined): { index: number; count: number } | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(v);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new InputError("command line", "--shard", `I/N with 1 <= I <= N (got "${v}")`);
  return { index, count };
}

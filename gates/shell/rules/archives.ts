/**
 * Compressors and archivers beyond tar/zip (copy-move.ts): programs that replace their input
 * with another file, or unpack over existing files.
 * - gzip, bzip2, xz, lzma, lzip, zstd, lz4, brotli, compress (and the un- names): compressing
 *   `f` removes `f` once `f.gz` is written (unless -k/--keep, or zstd/lz4/brotli, which keep it
 *   unless --rm); decompressing `f.gz` removes it and writes `f`; -f writes over an existing
 *   output. -c/--stdout, -t/--test and -l/--list only read; no file operand is a stdin filter.
 * - 7z/7za/7zr: `x`/`e` extract (overwriting with -aoa or -y), `a`/`u` write the archive, `d`
 *   rewrites it; `l`/`t` read.
 * - cpio -i extracts into the cwd (-u overwrites newer files), -p copies into a folder.
 */
import { hasAny, splitArgs } from "../options.ts";
import { outputFile } from "./output-files.ts";
import { lit, type Rule, type RuleTable } from "./types.ts";

interface Codec {
  suffix: string;
  /** Keeps the input unless --rm. */
  keeps?: boolean;
  /** The name decompresses (gunzip). */
  decompress?: boolean;
}

function compressor(codec: Codec): Rule {
  return async (args, ctx) => {
    const { flags, operands } = splitArgs(args, { withValue: ["S", "suffix", "o", "output", "T", "threads", "b", "memlimit", "M", "q"] });
    if (hasAny(flags, "c", "stdout", "to-stdout", "t", "test", "l", "list", "h", "help", "V", "version")) {
      await ctx.targets(operands, "read", `${ctx.name} reads`);
      return;
    }
    const files = operands.filter((o) => o.text !== "-");
    if (files.length === 0) return; // a filter from stdin to stdout
    const decompress = codec.decompress === true || hasAny(flags, "d", "decompress", "uncompress");
    const keep = hasAny(flags, "k", "keep") || (codec.keeps === true && !hasAny(flags, "rm"));
    const force = hasAny(flags, "f", "force");
    const recursive = hasAny(flags, "r", "recursive");
    const suffix = codec.suffix;
    for (const f of files) {
      if (!keep)
        await ctx.targets([f], "delete", `${ctx.name} replaces the file with its ${decompress ? "decompressed" : "compressed"} copy`, {
          destructive: true,
          recursive,
        });
      else await ctx.targets([f], "read", `${ctx.name} reads`);
      if (recursive || f.unknown || f.glob) continue;
      const out = decompress ? (f.text.endsWith(suffix) ? f.text.slice(0, -suffix.length) : f.text.replace(/\.t[a-z]*z$/, ".tar")) : f.text + suffix;
      // Without -f the program refuses to replace an existing output.
      if (force) await outputFile(ctx, lit(out), `${ctx.name} -f writes`);
      else await ctx.targets([lit(out)], "write", `${ctx.name} writes`);
    }
  };
}

const sevenZip: Rule = async (args, ctx) => {
  const cmd = args[0]?.text ?? "";
  const rest = args.slice(1);
  const switches = rest.filter((a) => a.text.startsWith("-"));
  const operands = rest.filter((a) => !a.text.startsWith("-"));
  const archive = operands[0];
  if (cmd === "l" || cmd === "t" || cmd === "h" || cmd === "i") {
    if (archive) await ctx.targets([archive], "read", `${ctx.name} reads the archive`);
    return;
  }
  if (cmd === "x" || cmd === "e") {
    const out = switches.find((s) => s.text.startsWith("-o"))?.text.slice(2) || ".";
    const overwrite = switches.some((s) => s.text === "-aoa" || s.text === "-y");
    if (archive) await ctx.targets([archive], "read", `${ctx.name} reads the archive`);
    await ctx.targets([lit(out)], "write", overwrite ? `${ctx.name} ${cmd} overwrites existing files in` : `${ctx.name} ${cmd} extracts into`, {
      contents: true,
      recursive: true,
      ...(overwrite ? { destructive: true } : {}),
    });
    return;
  }
  if (!archive) return;
  if (cmd === "d" || cmd === "rn") {
    await outputFile(ctx, archive, `${ctx.name} ${cmd} rewrites the archive`);
    return;
  }
  if (cmd === "a" || cmd === "u") {
    await ctx.targets([archive], "write", `${ctx.name} ${cmd} writes the archive`);
    const sdel = switches.some((s) => s.text === "-sdel");
    await ctx.targets(
      operands.slice(1),
      sdel ? "delete" : "read",
      sdel ? `${ctx.name} -sdel deletes the sources` : `${ctx.name} reads`,
      sdel ? { destructive: true, recursive: true } : {},
    );
    return;
  }
  ctx.unknown(`${ctx.name} ${cmd}: command not analysed`);
};

const cpio: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, {
    withValue: ["D", "directory", "F", "file", "I", "O", "H", "format", "E", "pattern-file", "R", "owner"],
  });
  const dir = values.get("D")?.[0] ?? values.get("directory")?.[0] ?? ".";
  const overwrite = hasAny(flags, "u", "unconditional");
  if (hasAny(flags, "i", "extract")) {
    if (hasAny(flags, "t", "list")) return;
    await ctx.targets([lit(dir)], "write", overwrite ? "cpio -iu overwrites files in" : "cpio -i extracts into", {
      contents: true,
      recursive: true,
      ...(overwrite ? { destructive: true } : {}),
    });
  } else if (hasAny(flags, "p", "pass-through")) {
    const dest = operands[0];
    if (dest)
      await ctx.targets([dest], "write", overwrite ? "cpio -pu overwrites files in" : "cpio -p copies into", {
        contents: true,
        recursive: true,
        ...(overwrite ? { destructive: true } : {}),
      });
  }
  for (const f of [...(values.get("F") ?? []), ...(values.get("O") ?? [])])
    if (hasAny(flags, "o", "create")) await outputFile(ctx, lit(f), "cpio -o writes the archive");
};

const CODECS: [string[], Codec][] = [
  [["gzip", "pigz"], { suffix: ".gz" }],
  [["gunzip", "unpigz"], { suffix: ".gz", decompress: true }],
  [["bzip2", "pbzip2", "lbzip2"], { suffix: ".bz2" }],
  [["bunzip2"], { suffix: ".bz2", decompress: true }],
  [["xz", "pixz"], { suffix: ".xz" }],
  [["unxz"], { suffix: ".xz", decompress: true }],
  [["lzma"], { suffix: ".lzma" }],
  [["unlzma"], { suffix: ".lzma", decompress: true }],
  [["lzip", "plzip"], { suffix: ".lz" }],
  [["zstd", "pzstd"], { suffix: ".zst", keeps: true }],
  [["unzstd"], { suffix: ".zst", keeps: true, decompress: true }],
  [["lz4"], { suffix: ".lz4", keeps: true }],
  [["unlz4"], { suffix: ".lz4", keeps: true, decompress: true }],
  [["brotli"], { suffix: ".br", keeps: true }],
  [["compress"], { suffix: ".Z" }],
  [["uncompress"], { suffix: ".Z", decompress: true }],
];

export const ARCHIVE_RULES: RuleTable = [
  ...CODECS.flatMap(([names, codec]) => names.map((n) => [n, compressor(codec)] as const)),
  ["7z", sevenZip],
  ["7za", sevenZip],
  ["7zr", sevenZip],
  ["cpio", cpio],
];

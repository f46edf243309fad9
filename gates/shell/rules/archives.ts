/**
 * Compressors and archivers beyond tar/zip (copy-move.ts): programs that replace their input
 * with another file, or unpack over existing files.
 * - gzip, bzip2, xz, lzma, lzip, zstd, lz4, brotli, compress (and the un- names): compressing
 *   `f` removes `f` once `f.gz` is written (unless -k/--keep, or zstd/lz4/brotli, which keep it
 *   unless --rm); decompressing `f.gz` removes it and writes `f`; -f writes over an existing
 *   output; `-o FILE` (zstd, lzip, brotli) and lz4's second operand name the output instead.
 *   -c/--stdout, -t/--test and -l/--list only read; no file operand is a stdin filter. Each
 *   program's options are modelled from its manual (ARCHIVE_OPTIONS): the rule splits its
 *   command line by that table, and any other option is asked about by name.
 * - 7z/7za/7zr: `x`/`e` extract (overwriting with -aoa or -y), `a`/`u` write the archive, `d`
 *   rewrites it; `l`/`t` read. A switch outside the modelled ones is asked about by name.
 * - cpio -i extracts into the cwd (-u overwrites newer files), -p copies into a folder.
 */
import type { Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import { type OptionModel, type OptionTable, valueOptions } from "./models.ts";
import { outputFile } from "./output-files.ts";
import { lit, type Rule, type RuleTable } from "./types.ts";

interface Codec {
  suffix: string;
  /** The program's options (ARCHIVE_OPTIONS); the rule splits its command line by them. */
  options: OptionModel;
  /** Keeps the input unless one of `removes` is given (zstd, lz4, brotli). */
  keeps?: boolean;
  /** Options that remove the input of a program that keeps it (`--rm`). */
  removes?: readonly string[];
  /** The name decompresses (gunzip). */
  decompress?: boolean;
  /** Options that only read or print (-c, -t, -l): nothing is written or removed. */
  reads?: readonly string[];
  /** A second operand is the output file (lz4 IN OUT), unless -m names many inputs. */
  outputOperand?: boolean;
}

const READS = ["c", "stdout", "to-stdout", "t", "test", "l", "list", "h", "help", "V", "version", "L", "license"];

function compressor(codec: Codec): Rule {
  return async (args, ctx) => {
    const { flags, values, operands } = splitArgs(args, { withValue: valueOptions(codec.options) });
    if (hasAny(flags, ...(codec.reads ?? READS))) {
      await ctx.targets(operands, "read", `${ctx.name} reads`);
      return;
    }
    let files = operands.filter((o) => o.text !== "-");
    const decompress = codec.decompress === true || hasAny(flags, "d", "decompress", "uncompress");
    const keep = hasAny(flags, "k", "keep") || (codec.keeps === true && !hasAny(flags, ...(codec.removes ?? ["rm"])));
    const force = hasAny(flags, "f", "force");
    const recursive = hasAny(flags, "r", "recursive");
    // The output named by -o (or by lz4's second operand) instead of the input's name and suffix.
    let named: Arg | undefined = [...(values.get("o") ?? []), ...(values.get("output") ?? [])].map(lit)[0];
    if (codec.outputOperand && !hasAny(flags, "m", "multiple") && operands.length === 2) {
      named = operands[1];
      files = operands.slice(0, 1).filter((o) => o.text !== "-");
    }
    const write = async (out: Arg) => {
      // Without -f the program refuses to replace an existing output.
      if (force) await outputFile(ctx, out, `${ctx.name} -f writes`);
      else await ctx.targets([out], "write", `${ctx.name} writes`);
    };
    if (named && named.text !== "-") await write(named);
    if (files.length === 0) return; // a filter from stdin to stdout (or to the named output)
    const suffix = codec.suffix;
    for (const f of files) {
      if (!keep)
        await ctx.targets([f], "delete", `${ctx.name} replaces the file with its ${decompress ? "decompressed" : "compressed"} copy`, {
          destructive: true,
          recursive,
        });
      else await ctx.targets([f], "read", `${ctx.name} reads`);
      if (named || recursive || f.unknown || f.glob) continue;
      await write(lit(decompress ? (f.text.endsWith(suffix) ? f.text.slice(0, -suffix.length) : f.text.replace(/\.t[a-z]*z$/, ".tar")) : f.text + suffix));
    }
  };
}

/**
 * 7-Zip's switches (7z's own help): `-o{dir}`, `-p{password}`, `-t{type}`, `-m{method}`,
 * `-x`/`-i` filters, `-ao{a|s|t|u}` overwrite modes, `-y`, `-r`, output and volume switches,
 * `-sdel` (deletes the sources, judged), and the store/listing switches. Left out: `-spf`
 * (absolute paths on extraction), `-u` (may write another archive), `-si`/`-so` names, `-sfx`
 * with a module (another program), and anything else.
 */
const SEVEN_SWITCHES =
  /^-(?:ao[astu]|ai[r@!-].*|an|ax[r@!-].*|bb[0-3]?|bd|bs[oep][0-2]|bt|i[r@!-].*|m.+|o.+|p.*|r[-0]?|sa[aes]|scc(?:UTF-8|WIN|DOS)|scrc\w*|scs(?:UTF-8|UTF-16LE|UTF-16BE|WIN|DOS|\d+)|sdel|seml\.?|sfx|slp|slt|snh|snl|sni|sns-?|spd|spe|ssc-?|sse|ssp|ssw|stl|stm\d+|stx\w+|t\w+|v\d+[bkmg]?|w.*|x[r@!-].*|y)$/;

const sevenZip: Rule = async (args, ctx) => {
  const cmd = args[0]?.text ?? "";
  const rest = args.slice(1);
  for (const a of rest)
    if (!a.unknown && a.text.startsWith("-") && a.text !== "--" && !SEVEN_SWITCHES.test(a.text))
      ctx.unknown(`${ctx.name}: switch \`${a.text}\` is not modelled`);
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
  const { flags, values, operands } = splitArgs(args, { withValue: valueOptions(CPIO_OPTIONS) });
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

const HELP = ["help", "version"];
const LEVELS = "0123456789";
// biome-ignore format: packed word lists
const GZIP: OptionModel = { short: `cdfhklLnNqrtvV${LEVELS}`, shortValue: "S", long: ["stdout", "to-stdout", "decompress", "uncompress", "force", "keep", "list", "license", "no-name", "name", "quiet", "recursive", "rsyncable", "synchronous", "test", "verbose", "fast", "best", ...HELP], longValue: ["suffix"] };
// biome-ignore format: packed word lists
const PIGZ: OptionModel = { short: `${GZIP.short}iKmMRTYzUAH`, shortValue: "Sbp", long: [...GZIP.long!, "independent", "zip", "no-time", "time", "zlib", "alias", "huffman", "rle", "first", "ultra"], longValue: ["suffix", "blocksize", "processes", "comment"] };
// biome-ignore format: packed word lists
const BZIP2: OptionModel = { short: `cdzkftqvsLV${LEVELS}`, long: ["stdout", "decompress", "compress", "keep", "force", "test", "quiet", "verbose", "small", "license", "fast", "best", "repetitive-fast", "repetitive-best", ...HELP] };
const PBZIP2: OptionModel = { short: `${BZIP2.short}lrFS`, shortValue: "bmnp", long: BZIP2.long! };
// biome-ignore format: packed word lists
const XZ: OptionModel = { short: `zdtlkfcqvhHVeQ${LEVELS}`, shortValue: "SFCTM", long: ["compress", "decompress", "uncompress", "test", "list", "keep", "force", "stdout", "to-stdout", "single-stream", "no-sparse", "extreme", "fast", "best", "quiet", "verbose", "no-warn", "robot", "info-memory", "long-help", "ignore-check", "no-adjust", "lzma1", "lzma2", "x86", "arm", "arm64", "armthumb", "powerpc", "ia64", "sparc", "riscv", "delta", ...HELP], longValue: ["suffix", "format", "check", "threads", "memlimit", "memory", "memlimit-compress", "memlimit-decompress", "memlimit-mt", "block-size", "block-list", "flush-timeout"] };
// biome-ignore format: packed word lists
const ZSTD: OptionModel = { short: `zdfckqvhHVrltC${LEVELS}`, shortValue: "oDTBM", long: ["compress", "decompress", "uncompress", "force", "stdout", "keep", "rm", "quiet", "verbose", "recursive", "list", "test", "ultra", "long", "adapt", "no-progress", "progress", "sparse", "no-sparse", "check", "no-check", "exclude-compressed", "rsyncable", "single-thread", "content-size", "no-content-size", "fast", "best", "auto-threads", "row-match-finder", "no-dictID", "pass-through", "no-pass-through", ...HELP], longValue: ["format", "memory", "memlimit", "threads", "block-size", "patch-from", "stream-size", "size-hint", "zstd", "maxdict", "dictID"] };
// biome-ignore format: packed word lists
const LZ4: OptionModel = { short: `zdfckqvhHVmrlt${LEVELS}`, shortValue: "B", long: ["compress", "decompress", "uncompress", "force", "stdout", "to-stdout", "keep", "rm", "quiet", "verbose", "multiple", "list", "test", "sparse", "no-sparse", "favor-decSpeed", "content-size", "no-content-size", "frame-crc", "no-frame-crc", "best", "fast", ...HELP] };
// biome-ignore format: packed word lists
const BROTLI: OptionModel = { short: `cdfhjkntvVZ${LEVELS}`, shortValue: "oqwSD", long: ["stdout", "decompress", "force", "rm", "keep", "no-copy-stat", "test", "verbose", "best", ...HELP], longValue: ["output", "quality", "lgwin", "large_window", "suffix", "dictionary"] };
// biome-ignore format: packed word lists
const LZIP: OptionModel = { short: `acdfFhklqtvV${LEVELS}`, shortValue: "bmnoSsB", long: ["trailing-error", "stdout", "decompress", "force", "recompress", "keep", "list", "quiet", "test", "verbose", "fast", "best", "loose-trailing", ...HELP], longValue: ["member-size", "match-length", "threads", "output", "dictionary-size", "volume-size", "data-size"] };
const COMPRESS: OptionModel = { short: "cdfrvVC", shortValue: "b" };
/** pixz: its -i/-o input and output files are left out (the rule names the output from the input). */
const PIXZ: OptionModel = { short: `dxltkeh${LEVELS}`, shortValue: "pf" };

/**
 * cpio's options (GNU cpio(1) 2.13). Left out: `--rsh-command` (runs a program) and
 * `--absolute-filenames` (writes where the archive's names point).
 */
// biome-ignore format: packed word lists
const CPIO_OPTIONS: OptionModel = { short: "0aAbBcdfilLmnrsStuvVop", shortValue: "CDEFHIMOR", long: ["null", "reset-access-time", "append", "swap", "make-directories", "nonmatching", "link", "dereference", "numeric-uid-gid", "no-absolute-filenames", "no-preserve-owner", "preserve-modification-time", "only-verify-crc", "quiet", "rename", "swap-bytes", "swap-halfwords", "list", "unconditional", "verbose", "dot", "sparse", "to-stdout", "device-independent", "reproducible", "ignore-devno", "renumber-inodes", "extract", "create", "pass-through", "usage", ...HELP], longValue: ["io-size", "directory", "pattern-file", "file", "format", "message", "owner", "block-size", "rename-batch-file", "warning"] };

const CODECS: [string[], Codec][] = [
  [["gzip", "gunzip"], { suffix: ".gz", options: GZIP }],
  [["pigz", "unpigz"], { suffix: ".gz", options: PIGZ }],
  [["bzip2", "bunzip2"], { suffix: ".bz2", options: BZIP2 }],
  [["pbzip2", "lbzip2"], { suffix: ".bz2", options: PBZIP2 }],
  [["xz", "unxz", "lzma", "unlzma"], { suffix: ".xz", options: XZ }],
  [["pixz"], { suffix: ".xz", options: PIXZ }],
  [["lzip", "plzip"], { suffix: ".lz", options: LZIP }],
  [["zstd", "pzstd", "unzstd"], { suffix: ".zst", keeps: true, options: ZSTD }],
  [["lz4", "unlz4"], { suffix: ".lz4", keeps: true, options: LZ4, outputOperand: true, reads: READS.filter((r) => r !== "l") }],
  [["brotli"], { suffix: ".br", keeps: true, removes: ["rm", "j"], options: BROTLI }],
  [["compress", "uncompress"], { suffix: ".Z", options: COMPRESS }],
];
/** Names that decompress by default, and lzma's own suffix. */
const DECOMPRESSORS = new Set(["gunzip", "unpigz", "bunzip2", "unxz", "unlzma", "unzstd", "unlz4", "uncompress"]);
const codecOf = (name: string, codec: Codec): Codec => ({
  ...codec,
  ...(name.includes("lzma") ? { suffix: ".lzma" } : {}),
  ...(DECOMPRESSORS.has(name) ? { decompress: true } : {}),
});

export const ARCHIVE_RULES: RuleTable = [
  ...CODECS.flatMap(([names, codec]) => names.map((n) => [n, compressor(codecOf(n, codec))] as const)),
  ["7z", sevenZip],
  ["7za", sevenZip],
  ["7zr", sevenZip],
  ["cpio", cpio],
];

/** What the archive rules model of each compressor's options (each program's manual), and cpio's. */
export const ARCHIVE_OPTIONS: OptionTable = [...CODECS.flatMap(([names, codec]) => names.map((n) => [n, codec.options] as const)), ["cpio", CPIO_OPTIONS]];

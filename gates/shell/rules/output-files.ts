/**
 * Output-file arguments of ordinary text, data and media tools: one table of programs and the
 * flags or operand positions that name what they write. Writing a new file is an ordinary write
 * (the path policy judges where); writing over an existing, non-empty file loses its content and
 * is destructive, whatever the tool: `sort -o`, `uniq in out`, `iconv -o`, `pandoc -o`,
 * `xxd -r in out`, `openssl -out`, `split`/`csplit` chunks, `convert in out`, `ffmpeg -y ... out`,
 * `sdiff -o`, `tar -cf` over an archive, `yq -i` (an in-place edit), `tree -o`. The input operands are reads.
 * sort, uniq, split, csplit and tree model their options (OUTPUT_FILE_OPTIONS): any other is asked about.
 * (The shell's own `>` onto a file the same command reads is caught in analyze.ts.)
 */
import { posix } from "node:path";
import type { Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import { type OptionModel, type OptionTable, valueOptions } from "./models.ts";
import { lit, type Rule, type RuleContext, type RuleTable } from "./types.ts";

const HARMLESS_OUTPUTS = new Set(["-", "/dev/null", "/dev/stdout", "/dev/stderr"]);

/** A write of `arg` by `what`: destructive when it replaces an existing, non-empty file. */
export async function outputFile(ctx: RuleContext, arg: Arg, what: string, opts: { append?: boolean; recursive?: boolean } = {}): Promise<void> {
  if (!arg.unknown && HARMLESS_OUTPUTS.has(arg.text)) return;
  for (const p of await ctx.paths(arg, what)) {
    if (p.endsWith("/\u0000")) {
      ctx.effect({ op: "write", path: p.slice(0, -2) || "/", contents: true, why: what, ...(opts.append ? {} : { destructive: true }) });
      continue;
    }
    const existing = opts.append ? null : await ctx.env.lstat(p);
    const overwrites = existing !== null && existing.type !== "dir" && existing.size > 0;
    ctx.effect({
      op: "write",
      path: p,
      why: overwrites ? `${what} (over an existing file: its content is lost)` : what,
      ...(overwrites ? { destructive: true } : {}),
      ...(opts.recursive ? { recursive: true } : {}),
    });
  }
}

/**
 * Every existing file a prefix-named output (`split`, `csplit`) would replace: the prefix
 * followed by a name `suffix` matches (the chunk suffixes the program generates); when none
 * exists, the first chunk's name, so where the chunks go is still judged.
 */
async function prefixOutputs(ctx: RuleContext, prefix: string, suffix: RegExp, what: string): Promise<void> {
  const cwd = ctx.state.cwd;
  const abs = prefix.startsWith("/") ? prefix : cwd === null ? null : posix.join(cwd, prefix);
  if (abs === null) return ctx.unknown(`${what}: ${prefix} is relative to an unknown directory`);
  const existing = (await ctx.env.glob(`${abs.replace(/[*?[\]{}]/g, "\\$&")}*`)).filter((e) => e.startsWith(abs) && suffix.test(e.slice(abs.length)));
  for (const e of existing.slice(0, 64)) await outputFile(ctx, lit(e), what);
  if (existing.length === 0) await outputFile(ctx, lit(`${abs}aa`), what);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** A program whose output file is the value of some flags (`-o`, `--output`); its operands are read. */
function outputFlag(flags: readonly string[], withValue: readonly string[] = []): Rule {
  return async (args, ctx) => {
    const { values, operands } = splitArgs(args, { withValue: [...flags, ...withValue] });
    for (const f of flags) for (const o of values.get(f) ?? []) await outputFile(ctx, lit(o), `${ctx.name} -${f.length > 1 ? "-" : ""}${f} writes`);
    await ctx.targets(
      operands.filter((o) => o.text !== "-"),
      "read",
      `${ctx.name} reads`,
    );
  };
}

/** `prog [options] [input [output]]`: the second operand is written (uniq, xxd). */
function inputOutputOperands(withValue: readonly string[]): Rule {
  return async (args, ctx) => {
    const { operands } = splitArgs(args, { withValue: [...withValue] });
    if (operands[0] && operands[0].text !== "-") await ctx.targets([operands[0]], "read", `${ctx.name} reads`);
    if (operands[1]) await outputFile(ctx, operands[1], `${ctx.name} writes its output operand`);
  };
}

const HELP = ["help", "version"];
/** sort's options (GNU coreutils sort(1)). Left out: `--compress-program` (runs a program), `--files0-from` (inputs named in a file). */
// biome-ignore format: packed word lists
const SORT_OPTIONS: OptionModel = { short: "bdfgiMhnRrVcCmsuz", shortValue: "kotST", long: ["ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort", "check", "merge", "stable", "unique", "zero-terminated", "debug", ...HELP], longValue: ["sort", "random-source", "key", "output", "field-separator", "buffer-size", "temporary-directory", "parallel", "batch-size"] };
/** uniq's options (GNU coreutils uniq(1)); `--group` and `--all-repeated` take their method attached only. */
// biome-ignore format: packed word lists
const UNIQ_OPTIONS: OptionModel = { short: "cdDiuz", shortValue: "fsw", long: ["count", "repeated", "all-repeated", "group", "ignore-case", "unique", "zero-terminated", ...HELP], longValue: ["skip-fields", "skip-chars", "check-chars"] };
/** split's options (GNU coreutils split(1)); `--filter` runs its command, which the rule analyses. */
// biome-ignore format: packed word lists
const SPLIT_OPTIONS: OptionModel = { short: "deux", shortValue: "abClnt", long: ["numeric-suffixes", "hex-suffixes", "elide-empty-files", "unbuffered", "verbose", ...HELP], longValue: ["suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "separator", "filter"] };
/** csplit's options (GNU coreutils csplit(1)). */
const CSPLIT_OPTIONS: OptionModel = {
  short: "ksz",
  shortValue: "bfn",
  long: ["keep-files", "suppress-matched", "quiet", "silent", "elide-empty-files", ...HELP],
  longValue: ["suffix-format", "prefix", "digits"],
};
/** tree's options (tree(1) 2.x). Left out: `-R` (writes an output file into every folder), `--fromfile` (a listing read as the tree). */
// biome-ignore format: packed word lists
const TREE_OPTIONS: OptionModel = { short: "adlfxqNQpugshDFvtcUriASnCXJ", shortValue: "LPIoHT", long: ["gitignore", "ignore-case", "matchdirs", "metafirst", "prune", "info", "noreport", "inodes", "device", "dirsfirst", "filesfirst", "du", "si", "nolinks", "fflinks", "hyperlink", "opt-toggle", ...HELP], longValue: ["infofile", "charset", "filelimit", "timefmt", "sort", "scheme", "authority", "gitfile"] };

const sortRule: Rule = outputFlag(["o", "output"], valueOptions(SORT_OPTIONS));

/** tree lists folders (nothing read is judged, as for ls); `-o FILE` writes the listing. */
const tree: Rule = async (args, ctx) => {
  const { values } = splitArgs(args, { withValue: valueOptions(TREE_OPTIONS) });
  for (const o of values.get("o") ?? []) await outputFile(ctx, lit(o), "tree -o writes");
};

// biome-ignore format: a packed word list reads better than one word per line
const PANDOC_VALUES = ["f", "from", "r", "read", "t", "to", "w", "write", "template", "M", "metadata", "V", "variable", "c", "css", "resource-path", "lua-filter", "F", "filter", "bibliography", "csl", "reference-doc", "pdf-engine", "H", "include-in-header", "B", "include-before-body", "A", "include-after-body", "data-dir", "metadata-file", "defaults", "d", "highlight-style", "toc-depth", "columns", "dpi", "wrap", "extract-media"];

/** openssl: single-dash long options; `-out`/`-keyout` write, `-in` reads. */
const openssl: Rule = async (args, ctx) => {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    const v = args[i + 1];
    if (!v) break;
    if (t === "-out" || t === "-keyout" || t === "-signkey-out") {
      await outputFile(ctx, v, `openssl ${t} writes`);
      i++;
    } else if (t === "-in" || t === "-key" || t === "-inkey" || t === "-CA" || t === "-CAkey") {
      await ctx.targets([v], "read", `openssl ${t} reads`);
      i++;
    }
  }
};

const split: Rule = async (args, ctx) => {
  const { values, operands } = splitArgs(args, { withValue: valueOptions(SPLIT_OPTIONS) });
  for (const f of values.get("filter") ?? []) await ctx.script(f, "split --filter");
  const [input, prefix] = operands;
  if (input && input.text !== "-") await ctx.targets([input], "read", "split reads");
  if (prefix?.unknown) return ctx.unknown("split writes chunks named at run time");
  // Chunks are PREFIX + a suffix of letters, digits (-d) or hex digits (-x), at least -a long, + --additional-suffix.
  const length = Number(values.get("a")?.[0] ?? values.get("suffix-length")?.[0] ?? 2);
  const n = Number.isInteger(length) && length > 0 ? length : 1;
  const extra = escapeRegExp(values.get("additional-suffix")?.[0] ?? "");
  await prefixOutputs(ctx, prefix?.text ?? "x", new RegExp(`^(?:[a-z]{${n},}|[0-9a-f]{${n},})${extra}$`), "split writes a chunk");
};

const csplit: Rule = async (args, ctx) => {
  const { values, operands } = splitArgs(args, { withValue: valueOptions(CSPLIT_OPTIONS) });
  const prefix = values.get("f")?.[0] ?? values.get("prefix")?.[0] ?? "xx";
  if (operands[0] && operands[0].text !== "-") await ctx.targets([operands[0]], "read", "csplit reads");
  // Pieces are PREFIX + -n digits, unless -b gives them a printf format (then any name is possible).
  const digits = Number(values.get("n")?.[0] ?? values.get("digits")?.[0] ?? 2);
  const suffix = values.has("b") || values.has("suffix-format") ? /^/ : new RegExp(`^[0-9]{${Number.isInteger(digits) && digits > 0 ? digits : 1},}$`);
  await prefixOutputs(ctx, prefix, suffix, "csplit writes a piece");
};

/** ImageMagick convert / magick: the last operand is the output. */
const convert: Rule = async (args, ctx) => {
  const operands = args.filter(
    (a, i) => !a.text.startsWith("-") && !a.text.startsWith("+") && !(i > 0 && /^-\w/.test(args[i - 1]!.text) && !/\.\w+$/.test(a.text)),
  );
  if (ctx.name.endsWith("magick") && operands[0]?.text === "mogrify") return ctx.unknown("magick mogrify rewrites images in place");
  const out = operands.at(-1);
  if (!out) return;
  await ctx.targets(operands.slice(0, -1), "read", `${ctx.name} reads`);
  await outputFile(ctx, out, `${ctx.name} writes`);
};

/** ffmpeg: inputs after -i, outputs are the other operands; without -y it refuses to overwrite. */
const ffmpeg: Rule = async (args, ctx) => {
  const overwrite = args.some((a) => a.text === "-y");
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.text === "-i") {
      const v = args[++i];
      if (v && !/^[a-z]+:/.test(v.text)) await ctx.targets([v], "read", "ffmpeg reads");
      continue;
    }
    if (a.text.startsWith("-")) {
      if (!["-y", "-n", "-hide_banner", "-nostdin", "-stats", "-nostats", "-shortest", "-vn", "-an", "-sn", "-dn"].includes(a.text)) i++;
      continue;
    }
    if (/^[a-z]+:\/\//.test(a.text)) continue;
    if (overwrite) await outputFile(ctx, a, "ffmpeg -y writes");
    else await ctx.targets([a], "write", "ffmpeg writes (refuses to overwrite without -y)");
  }
};

/** yq -i edits the file in place: deletions (`del(...)`, assigning null) drop content. */
const yq: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: ["o", "output-format", "p", "input-format", "I", "indent", "e", "expression", "s", "split-exp"] });
  const inPlace = hasAny(flags, "i", "inplace");
  const exprIndex = operands[0]?.text === "eval" || operands[0]?.text === "e" || operands[0]?.text === "eval-all" ? 1 : 0;
  const expr = operands[exprIndex];
  const files = operands.slice(exprIndex + 1);
  if (!inPlace) {
    await ctx.targets(files, "read", `${ctx.name} reads`);
    return;
  }
  const destroys = !expr || expr.unknown !== undefined || /\bdel\s*\(|=\s*(null|\{\}|\[\]|"")\s*$/.test(expr.text);
  if (destroys) for (const f of files) await outputFile(ctx, f, `${ctx.name} -i rewrites the file (content may be removed)`);
  else await ctx.targets(files, "write", `${ctx.name} -i edits in place`);
};

export const OUTPUT_FILE_RULES: RuleTable = [
  ["sort", sortRule],
  ["uniq", inputOutputOperands(valueOptions(UNIQ_OPTIONS))],
  ["xxd", inputOutputOperands(["c", "cols", "g", "groupsize", "l", "len", "s", "seek", "o", "n", "name"])],
  ["iconv", outputFlag(["o", "output"], ["f", "from-code", "t", "to-code"])],
  ["pandoc", outputFlag(["o", "output"], PANDOC_VALUES)],
  ["sdiff", outputFlag(["o", "output"], ["w", "width", "tabsize", "diff-program"])],
  ["openssl", openssl],
  ["split", split],
  ["gsplit", split],
  ["csplit", csplit],
  ["convert", convert],
  ["magick", convert],
  ["ffmpeg", ffmpeg],
  ["yq", yq],
  ["tree", tree],
];

/** What the output-file rules model of the options of the programs whose output they judge. */
export const OUTPUT_FILE_OPTIONS: OptionTable = [
  ["sort", SORT_OPTIONS],
  ["uniq", UNIQ_OPTIONS],
  ["split", SPLIT_OPTIONS],
  ["gsplit", SPLIT_OPTIONS],
  ["csplit", CSPLIT_OPTIONS],
  ["tree", TREE_OPTIONS],
];

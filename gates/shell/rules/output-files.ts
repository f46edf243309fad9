/**
 * Output-file arguments of ordinary text, data and media tools: one table of programs and the
 * flags or operand positions that name what they write. Writing a new file is an ordinary write
 * (the path policy judges where); writing over an existing, non-empty file loses its content and
 * is destructive, whatever the tool: `sort -o`, `uniq in out`, `iconv -o`, `pandoc -o`,
 * `xxd -r in out`, `openssl -out`, `split`/`csplit` chunks, `convert in out`, `ffmpeg -y ... out`,
 * `sdiff -o`, `tar -cf` over an archive, `yq -i` (an in-place edit). The input operands are reads.
 * (The shell's own `>` onto a file the same command reads is caught in analyze.ts.)
 */
import { posix } from "node:path";
import type { Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
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

/** Every existing entry a prefix-named output (`split`, `csplit`) would replace, plus the prefix itself. */
async function prefixOutputs(ctx: RuleContext, prefix: string, what: string): Promise<void> {
  const cwd = ctx.state.cwd;
  const abs = prefix.startsWith("/") ? prefix : cwd === null ? null : posix.join(cwd, prefix);
  if (abs === null) return ctx.unknown(`${what}: ${prefix} is relative to an unknown directory`);
  const existing = await ctx.env.glob(`${abs.replace(/[*?[\]{}]/g, "\\$&")}*`);
  for (const e of existing.slice(0, 64)) await outputFile(ctx, lit(e), what);
  if (existing.length === 0) await outputFile(ctx, lit(`${abs}aa`), what);
}

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

const sortRule: Rule = outputFlag(
  ["o", "output"],
  ["k", "key", "t", "field-separator", "S", "buffer-size", "T", "temporary-directory", "parallel", "files0-from"],
);

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
  const { values, operands } = splitArgs(args, {
    withValue: ["l", "lines", "b", "bytes", "C", "line-bytes", "n", "number", "a", "suffix-length", "additional-suffix", "t", "separator", "filter"],
  });
  for (const f of values.get("filter") ?? []) await ctx.script(f, "split --filter");
  const [input, prefix] = operands;
  if (input && input.text !== "-") await ctx.targets([input], "read", "split reads");
  if (prefix?.unknown) return ctx.unknown("split writes chunks named at run time");
  await prefixOutputs(ctx, prefix?.text ?? "x", "split writes a chunk");
};

const csplit: Rule = async (args, ctx) => {
  const { values, operands } = splitArgs(args, { withValue: ["f", "prefix", "b", "suffix-format", "n", "digits"] });
  const prefix = values.get("f")?.[0] ?? values.get("prefix")?.[0] ?? "xx";
  if (operands[0] && operands[0].text !== "-") await ctx.targets([operands[0]], "read", "csplit reads");
  await prefixOutputs(ctx, prefix, "csplit writes a piece");
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
  ["uniq", inputOutputOperands(["f", "s", "w", "skip-fields", "skip-chars", "check-chars", "group", "all-repeated"])],
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
];

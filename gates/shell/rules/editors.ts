/**
 * In-place editors: programs that rewrite the files they are given. The edit script decides
 * the effect (../edit-scripts.ts): an edit that only substitutes, inserts or transliterates is an
 * ordinary write of the file; one that may drop or blank lines (sed `d`, `1,$d`, ed `%d`, vim
 * `normal`, anything not recognised, a script that cannot be read) is destructive when the file
 * exists. Scripts that write other files (`w file`) write those; scripts that run commands are
 * not understood.
 * - sed -i / --in-place (sed without -i only reads);
 * - ed, ex, vi/vim/nvim in batch mode (-e, -s, -es, --headless, -c/+cmd): commands from -c/+
 *   and, for ed/ex/vim -es, from stdin;
 * - line-ending converters (dos2unix & co.) and formatters with a write mode (prettier --write,
 *   eslint --fix, black, gofmt -w, clang-format -i, rustfmt, shfmt -w, ...): ordinary writes of
 *   their operands (the cwd's files without operands), so the path policy judges where;
 * - mogrify (rewrites images in place, losing the originals) and sponge (writes its operand from
 *   stdin): destructive when the file exists.
 */
import { classifyEdScript, classifySed, type EditAnalysis } from "../edit-scripts.ts";
import { toAbsolute, type Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import type { OptionModel, OptionTable } from "./models.ts";
import { lit, type Rule, type RuleContext, type RuleTable } from "./types.ts";

/** Write effects for `files` edited in place: destructive when the edit may drop lines and the file exists. */
async function editInPlace(ctx: RuleContext, files: readonly Arg[], a: EditAnalysis, what: string): Promise<void> {
  for (const f of files) {
    for (const p of await ctx.paths(f, what)) {
      if (p.endsWith("/\u0000")) {
        ctx.effect({ op: "write", path: p.slice(0, -2) || "/", contents: true, why: what, ...(a.kind === "destructive" ? { destructive: true } : {}) });
        continue;
      }
      const existing = a.kind === "destructive" ? await ctx.env.lstat(p) : null;
      const destroys = existing !== null && existing.type !== "dir" && existing.size > 0;
      ctx.effect({
        op: "write",
        path: p,
        why: destroys ? `${what} (the edit may drop lines)` : what,
        ...(destroys ? { destructive: true } : {}),
      });
    }
  }
  for (const w of a.writes) if (w && w !== "/dev/stdout") await ctx.targets([lit(w)], "write", `${ctx.name} script writes`);
  if (a.executes) ctx.unknown(`${ctx.name} script runs shell commands`);
}

const sed: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: ["e", "expression", "f", "file", "l", "line-length"] });
  const inPlace = [...flags].some((f) => f === "i" || f.startsWith("in-place")) || args.some((a) => /^-[a-zA-Z]*i/.test(a.text) && !a.text.startsWith("--"));
  const hasScriptOption = values.has("e") || values.has("expression") || values.has("f") || values.has("file");
  const files = hasScriptOption ? operands : operands.slice(1);
  const scriptFiles = [...(values.get("f") ?? []), ...(values.get("file") ?? [])];
  let script: string | null = hasScriptOption ? [...(values.get("e") ?? []), ...(values.get("expression") ?? [])].join("\n") : (operands[0]?.text ?? "");
  if (!hasScriptOption && operands[0]?.unknown) script = null;
  for (const f of scriptFiles) {
    const abs = toAbsolute(f, ctx.state.cwd);
    const text = abs ? await ctx.readScript(abs) : null;
    script = text === null || script === null ? null : `${script}\n${text}`;
  }
  const quiet = hasAny(flags, "n", "quiet", "silent");
  const a: EditAnalysis = script === null ? { kind: "destructive", writes: [], executes: false } : classifySed(script, quiet);
  if (script === null) ctx.unknown(`${ctx.name} script cannot be read`);
  if (inPlace) await editInPlace(ctx, files, a, `${ctx.name} -i rewrites the file`);
  else {
    await ctx.targets(files, "read", `${ctx.name} reads`);
    for (const w of a.writes) if (w && w !== "/dev/stdout") await ctx.targets([lit(w)], "write", `${ctx.name} script writes`);
    if (a.executes) ctx.unknown(`${ctx.name} script runs shell commands`);
    ctx.setOutput({ kind: "unknown", why: "sed output" });
  }
};

/** ed, ex, vi, vim, nvim: the commands from -c/+cmd, or from stdin; the operands are the files. */
const exEditor: Rule = async (args, ctx) => {
  const name = ctx.name.slice(ctx.name.lastIndexOf("/") + 1);
  const commands: string[] = [];
  const files: Arg[] = [];
  let batch = name === "ed" || name === "red" || name === "ex";
  let readOnly = name === "red" || name === "view";
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (!a.unknown && (t === "-c" || t === "--cmd" || t === "-S" || /^-[a-zA-Z]+c$/.test(t))) {
      if (/^-[a-zA-Z]*[es][a-zA-Z]*c$/.test(t)) batch = true;
      const v = args[++i];
      if (v?.unknown) commands.push("\u0000");
      else if (v && t !== "-S") commands.push(v.text);
      else if (v) commands.push("\u0000");
      continue;
    }
    if (!a.unknown && t.startsWith("+")) {
      commands.push(t.slice(1) || "$");
      continue;
    }
    if (!a.unknown && t.startsWith("-") && t !== "-") {
      if (t === "--headless" || /^-[a-zA-Z]*[es]/.test(t)) batch = true;
      if (/^-[a-zA-Z]*[RM]/.test(t) || t === "-R") readOnly = true;
      if (t === "-u" || t === "-i" || t === "-T" || t === "-w" || t === "-W") i++;
      continue;
    }
    files.push(a);
  }
  // Batch editors read commands from stdin; an interactive vim cannot run without a terminal.
  if (ctx.stdinFed && (batch || name === "ed" || name === "ex")) {
    const stdin = await ctx.stdin();
    commands.push(stdin.kind === "text" ? stdin.text : "\u0000");
  }
  if (commands.length === 0) {
    if (files.length && !readOnly && batch) await ctx.targets(files, "write", `${name} edits`);
    return;
  }
  const script = commands.join("\n");
  const a: EditAnalysis = script.includes("\u0000") ? { kind: "destructive", writes: [], executes: false } : classifyEdScript(script);
  if (script.includes("\u0000")) ctx.unknown(`${name} commands cannot be read`);
  if (readOnly) {
    await ctx.targets(files, "read", `${name} reads`);
    return;
  }
  await editInPlace(ctx, files, a, `${name} edits the file in place`);
};

/** Formatters and converters with a write mode: ordinary writes of their operands (or of the cwd's files). */
function formatter(opts: {
  writeFlags?: readonly string[];
  always?: boolean;
  withValue?: readonly string[];
  checkFlags?: readonly string[];
  skipOperands?: number;
}): Rule {
  return async (args, ctx) => {
    const { flags, operands } = splitArgs(args, { withValue: [...(opts.withValue ?? [])] });
    if (opts.checkFlags && hasAny(flags, ...opts.checkFlags)) return;
    const writes = opts.always === true || (opts.writeFlags ?? []).some((f) => flags.has(f));
    const files = operands.slice(opts.skipOperands ?? 0);
    if (!writes) {
      await ctx.targets(files, "read", `${ctx.name} reads`);
      return;
    }
    if (files.length === 0) await ctx.targets([lit(".")], "write", `${ctx.name} rewrites files under`, { contents: true });
    else await ctx.targets(files, "write", `${ctx.name} rewrites`);
  };
}

/** Destructive rewrites of existing operands (mogrify) or of the operand from stdin (sponge). */
function overwriter(what: string, opts: { withValue?: readonly string[]; append?: string } = {}): Rule {
  return async (args, ctx) => {
    const { flags, operands } = splitArgs(args, { withValue: [...(opts.withValue ?? [])] });
    const append = opts.append !== undefined && flags.has(opts.append);
    for (const o of operands) {
      for (const p of await ctx.paths(o, what)) {
        const existing = p.endsWith("/\u0000") ? null : await ctx.env.lstat(p);
        const destroys = !append && existing !== null && existing.type !== "dir";
        ctx.effect({
          op: "write",
          path: p.endsWith("/\u0000") ? p.slice(0, -2) || "/" : p,
          why: destroys ? `${what} (the old content is lost)` : what,
          ...(destroys ? { destructive: true } : {}),
        });
      }
    }
  };
}

/** mogrify rewrites every image operand in place; ImageMagick options are `-name value`, so files are the operands with an extension, a slash or a glob. */
const mogrify: Rule = async (args, ctx) => {
  const images = args.filter(
    (a, i) => !a.text.startsWith("-") && !a.text.startsWith("+") && (a.unknown !== undefined || /\.\w+$|\/|[*?[]/.test(a.text)) && i >= 0,
  );
  if (args.some((a) => a.text === "-path")) return ctx.unknown("mogrify -path writes into another folder");
  await overwriter("mogrify rewrites the image in place")(images, ctx);
};

export const EDITOR_RULES: RuleTable = [
  ["sed", sed],
  ["gsed", sed],
  ["ed", exEditor],
  ["red", exEditor],
  ["ex", exEditor],
  ["vi", exEditor],
  ["vim", exEditor],
  ["nvim", exEditor],
  ["dos2unix", formatter({ always: true, withValue: ["n", "newfile", "o"] })],
  ["unix2dos", formatter({ always: true, withValue: ["n", "newfile", "o"] })],
  ["mac2unix", formatter({ always: true })],
  ["unix2mac", formatter({ always: true })],
  ["prettier", formatter({ writeFlags: ["write", "w"], withValue: ["config", "ignore-path", "plugin", "parser", "log-level", "stdin-filepath"] })],
  [
    "eslint",
    formatter({
      writeFlags: ["fix"],
      withValue: ["c", "config", "ext", "format", "f", "o", "output-file", "rule", "plugin", "parser", "ignore-path", "resolve-plugins-relative-to"],
    }),
  ],
  ["black", formatter({ always: true, checkFlags: ["check", "diff"], withValue: ["l", "line-length", "t", "target-version", "config", "include", "exclude"] })],
  ["autopep8", formatter({ writeFlags: ["i", "in-place"] })],
  ["isort", formatter({ always: true, checkFlags: ["check", "check-only", "c", "diff"] })],
  ["yapf", formatter({ writeFlags: ["i", "in-place"] })],
  ["gofmt", formatter({ writeFlags: ["w"] })],
  ["goimports", formatter({ writeFlags: ["w"] })],
  ["rustfmt", formatter({ always: true, checkFlags: ["check"], withValue: ["edition", "config-path", "config"] })],
  ["clang-format", formatter({ writeFlags: ["i"], withValue: ["style", "assume-filename"] })],
  ["shfmt", formatter({ writeFlags: ["w", "write"], withValue: ["i", "indent", "ln", "language-dialect"] })],
  ["stylua", formatter({ always: true, checkFlags: ["check", "c"] })],
  ["rubocop", formatter({ writeFlags: ["a", "A", "autocorrect", "autocorrect-all", "auto-correct", "auto-correct-all"] })],
  ["standardrb", formatter({ writeFlags: ["fix"] })],
  ["php-cs-fixer", formatter({ always: true, checkFlags: ["dry-run"], skipOperands: 1 })],
  ["sqlfluff", formatter({ always: false, writeFlags: ["force", "f"], skipOperands: 1 })],
  ["mogrify", mogrify],
  ["sponge", overwriter("sponge writes stdin over", { append: "a" })],
];

/** What the sed rule models of sed's options (GNU sed(1) 4.9): `-i` takes an optional attached suffix. */
const SED_OPTIONS: OptionModel = {
  short: "nsuzEbr",
  shortValue: "efl",
  shortOptional: "i",
  // biome-ignore format: packed word lists
  long: ["quiet", "silent", "debug", "follow-symlinks", "in-place", "posix", "regexp-extended", "separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "binary", "help", "version"],
  longValue: ["expression", "file", "line-length"],
};

export const EDITOR_OPTIONS: OptionTable = [
  ["sed", SED_OPTIONS],
  ["gsed", SED_OPTIONS],
];

/**
 * Language interpreters, as one catalogue: each entry names the programs (version suffixes such
 * as python3.11, ruby3.2, node20, lua5.4 are found by rules/index.ts's lookup), the flags and
 * subcommands that take inline code, the flags that take another value, and the scanner of
 * ../interpreters.ts that reads its code, if any. For every interpreter:
 * - inline code (`-c`, `-e`, `--eval`, `eval CODE`...), a script operand, or code on stdin
 *   (a pipe, heredoc or `<`) is scanned for file and shell calls; a language without a scanner
 *   is not understood (confirm), whatever its code says;
 * - perl/ruby `-i` edit the operands in place: an edit that only substitutes (`s///`, `tr///`)
 *   keeps the file's content, anything else (`-n`, assignments to `$_`) may drop lines and is
 *   destructive;
 * - a REPL without input (`python3`, `node`) has no effect.
 * Runners that hand a command to an interpreter (`uv run`, `bun x`) are wrappers: they dispatch.
 */
import { posix } from "node:path";
import type { PathOp } from "../../path-policy/judge.ts";
import { classifyPerlEdit } from "../edit-scripts.ts";
import { expandTilde, toAbsolute, type Arg } from "../expand.ts";
import { scanCode, type ImportRef, type Language } from "../interpreters.ts";
import { splitArgs } from "../options.ts";
import { outputFile } from "./output-files.ts";
import type { Rule, RuleContext, RuleTable } from "./types.ts";

export interface InterpreterSpec {
  /** Program names (without version suffixes). */
  readonly names: readonly string[];
  /** The scanner that reads its code; null: the gate does not read this language. */
  readonly language: Language | null;
  /** What the language is called in messages. */
  readonly label: string;
  /** Flags whose value is inline code, with dashes: "-e", "--eval". Long ones also as `--eval=CODE`. */
  readonly codeFlags: readonly string[];
  /**
   * Short letters that take code when bundled (`perl -ne CODE`; the code is the next argument),
   * and letters after which the rest of the cluster is a value (`-MFile::Path`, `-i.bak`).
   */
  readonly bundledCode?: readonly string[];
  readonly attachedValue?: readonly string[];
  /** Flags whose value is the script file (`php -f FILE`, `R -f FILE`). */
  readonly scriptFlags?: readonly string[];
  /** Code directly attached to a short flag (`python -c'print(1)'`). */
  readonly attachedCode?: boolean;
  /** First operands that take the next argument as code (`deno eval CODE`). */
  readonly codeSubcommands?: readonly string[];
  /** Flags that take a (non-code) value, with dashes. */
  readonly valueFlags?: readonly string[];
  /** The flag that runs a module instead of a script (`python -m`). */
  readonly moduleFlag?: string;
  /** perl/ruby: -i edits the operands in place. */
  readonly inPlace?: boolean;
}

const PYTHON_VALUES = ["-W", "-X", "--check-hash-based-pycs"];
const NODE_VALUES = ["-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "--input-type", "-C", "--conditions", "--title"];

// biome-ignore format: one interpreter a line reads better
export const INTERPRETERS: readonly InterpreterSpec[] = [
  { names: ["python", "python3", "python2", "pypy", "pypy3"], language: "python", label: "python", codeFlags: ["-c"], attachedCode: true, valueFlags: PYTHON_VALUES, moduleFlag: "-m" },
  { names: ["node", "nodejs"], language: "node", label: "node", codeFlags: ["-e", "--eval", "-p", "--print"], bundledCode: ["e", "p"], valueFlags: NODE_VALUES },
  { names: ["tsx", "ts-node", "ts-node-esm", "esno", "esr", "jiti"], language: "node", label: "node", codeFlags: ["-e", "--eval", "-p", "--print"], valueFlags: [...NODE_VALUES, "--tsconfig", "-P", "--project"] },
  { names: ["deno"], language: "node", label: "deno", codeFlags: [], codeSubcommands: ["eval"], valueFlags: ["--config", "-c", "--import-map", "--location", "--cert", "--env-file"] },
  { names: ["perl"], language: "perl", label: "perl", codeFlags: ["-e", "-E"], bundledCode: ["e", "E"], attachedValue: ["i", "I", "M", "m", "x", "C", "F", "d", "D"], valueFlags: ["-I", "-M", "-m", "-x"], inPlace: true },
  { names: ["ruby", "jruby", "truffleruby"], language: "ruby", label: "ruby", codeFlags: ["-e"], bundledCode: ["e"], attachedValue: ["i", "I", "r", "C", "E", "F", "x"], valueFlags: ["-I", "-r", "-C", "-E", "--encoding"], inPlace: true },
  { names: ["php", "php-cli"], language: "php", label: "php", codeFlags: ["-r", "-B", "-R", "-E"], valueFlags: ["-c", "-d", "-z"], scriptFlags: ["-f"] },
  { names: ["lua", "luajit", "texlua"], language: "lua", label: "lua", codeFlags: ["-e"], valueFlags: ["-l"] },
  { names: ["Rscript", "R"], language: "r", label: "R", codeFlags: ["-e", "--expr"], valueFlags: ["--default-packages"], scriptFlags: ["--file", "-f"] },
  { names: ["julia"], language: "julia", label: "julia", codeFlags: ["-e", "-E", "--eval", "--print", "-L", "--load"], valueFlags: ["-t", "--threads", "--project", "-J", "--sysimage"] },
  { names: ["tclsh", "wish", "expect"], language: "tcl", label: "tcl", codeFlags: ["-c"], valueFlags: ["-encoding"] },
  { names: ["pwsh", "powershell"], language: null, label: "PowerShell", codeFlags: ["-c", "-Command", "-command", "-EncodedCommand", "-e", "-ec"], valueFlags: ["-ExecutionPolicy"], scriptFlags: ["-File", "-f"] },
  { names: ["osascript"], language: null, label: "AppleScript", codeFlags: ["-e"], valueFlags: ["-l", "-s"] },
  { names: ["groovy"], language: null, label: "groovy", codeFlags: ["-e"], valueFlags: ["-cp", "--classpath"] },
  { names: ["elixir", "iex"], language: null, label: "elixir", codeFlags: ["-e", "--eval"], valueFlags: ["-r", "--require", "-pa"] },
  { names: ["erl", "escript"], language: null, label: "erlang", codeFlags: ["-eval", "-s", "-run"], valueFlags: ["-pa", "-sname", "-name", "-setcookie"] },
  { names: ["guile"], language: null, label: "scheme", codeFlags: ["-c", "-e"], valueFlags: ["-L", "-l"] },
  { names: ["racket"], language: null, label: "racket", codeFlags: ["-e", "--eval", "-r", "--script"], valueFlags: ["-l", "-t", "-f"] },
  { names: ["sbcl", "clisp", "ecl", "ccl"], language: null, label: "lisp", codeFlags: ["--eval", "-x"], scriptFlags: ["--load", "--script"] },
  { names: ["clojure", "clj", "bb"], language: null, label: "clojure", codeFlags: ["-e", "--eval", "-M", "-X"], valueFlags: ["-Sdeps", "-A"] },
  { names: ["emacs"], language: null, label: "elisp", codeFlags: ["--eval", "-eval", "-f", "--funcall"], valueFlags: ["-L", "--directory"], scriptFlags: ["-l", "--load", "--script"] },
  { names: ["crystal"], language: null, label: "crystal", codeFlags: [], codeSubcommands: ["eval"] },
  { names: ["jshell"], language: null, label: "java", codeFlags: [], valueFlags: ["--class-path", "-R", "-J"] },
  { names: ["scala", "kotlin", "kotlinc"], language: null, label: "jvm", codeFlags: ["-e", "-c", "-expression"] },
  { names: ["swift"], language: null, label: "swift", codeFlags: ["-e"] },
  { names: ["ghc", "runghc", "runhaskell", "ghci"], language: null, label: "haskell", codeFlags: ["-e"] },
  { names: ["ocaml"], language: null, label: "ocaml", codeFlags: ["-e"] },
  { names: ["octave"], language: null, label: "octave", codeFlags: ["--eval"] },
  { names: ["matlab"], language: null, label: "matlab", codeFlags: ["-batch", "-r"] },
  { names: ["gnuplot"], language: null, label: "gnuplot", codeFlags: ["-e"] },
  { names: ["sage"], language: null, label: "sage", codeFlags: ["-c"] },
  { names: ["dart"], language: null, label: "dart", codeFlags: [] },
  { names: ["nix-instantiate"], language: null, label: "nix", codeFlags: ["--eval", "-E", "--expr"] },
  { names: ["mongo", "mongosh"], language: null, label: "mongo shell", codeFlags: ["--eval"], valueFlags: ["--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase"] },
];

const SAFE_PYTHON_MODULES = new Set([
  "pytest",
  "unittest",
  "json.tool",
  "http.server",
  "venv",
  "pip",
  "doctest",
  "py_compile",
  "compileall",
  "timeit",
  "pydoc",
  "site",
  "platform",
  "mypy",
  "black",
  "ruff",
  "flake8",
  "pylint",
  "isort",
  "cProfile",
  "pstats",
  "tokenize",
  "ast",
  "dis",
  "this",
]);

function interpreterRule(spec: InterpreterSpec): Rule {
  const codeFlags = new Set(spec.codeFlags);
  const valueFlags = new Set(spec.valueFlags ?? []);
  const scriptFlags = new Set(spec.scriptFlags ?? []);
  return async (args, ctx) => {
    let code: string | null = null;
    let inPlace = false;
    let loop = "";
    let scriptPath: string | null = null;
    let operandIndex = 0;
    const rest: Arg[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const t = a.text;
      if (code !== null || scriptPath !== null) {
        rest.push(a);
        continue;
      }
      if (t.startsWith("-") && t !== "-" && !a.unknown) {
        if (t === "--") {
          const next = args[i + 1];
          if (next) {
            if (next.unknown) return ctx.unknown(`${ctx.name} runs a script chosen at run time`);
            scriptPath = next.text;
            i++;
          }
          continue;
        }
        if (spec.moduleFlag && (t === spec.moduleFlag || t.startsWith(spec.moduleFlag))) {
          const mod = t === spec.moduleFlag ? (args[i + 1]?.text ?? "") : t.slice(spec.moduleFlag.length);
          if (!SAFE_PYTHON_MODULES.has(mod)) ctx.unknown(`${ctx.name} ${spec.moduleFlag} ${mod}: module effects not analysed`);
          return;
        }
        const eq = t.indexOf("=");
        if (t.startsWith("--") && eq > 0 && codeFlags.has(t.slice(0, eq))) {
          code = t.slice(eq + 1);
          continue;
        }
        if (codeFlags.has(t)) {
          const next = args[i + 1];
          if (next?.unknown) return ctx.unknown(`${ctx.name} code is computed at run time`);
          code = next?.text ?? "";
          i++;
          continue;
        }
        if (scriptFlags.has(t)) {
          const next = args[i + 1];
          if (next?.unknown) return ctx.unknown(`${ctx.name} runs a script chosen at run time`);
          if (next) scriptPath = next.text;
          i++;
          continue;
        }
        if (valueFlags.has(t)) {
          // A module or include computed at run time may be any code.
          if (args[i + 1]?.unknown) return ctx.unknown(`${ctx.name} ${t} takes a value computed at run time`);
          i++;
          continue;
        }
        if (!t.startsWith("--")) {
          const letters = t.slice(1);
          if (spec.attachedCode && spec.codeFlags.some((f) => f.length === 2 && letters.startsWith(f[1]!) && letters.length > 1)) {
            code = letters.slice(1);
            continue;
          }
          if (!spec.bundledCode) continue;
          // A cluster: -pi, -ne CODE, -i.bak (the rest is the backup suffix), -MFile::Path.
          for (const l of letters) {
            if (l === "i" && spec.inPlace) {
              inPlace = true;
              break;
            }
            if (spec.attachedValue?.includes(l)) break;
            if (l === "n" || l === "p") loop += l;
            if (spec.bundledCode.includes(l)) {
              const next = args[i + 1];
              if (next?.unknown) return ctx.unknown(`${ctx.name} code is computed at run time`);
              code = next?.text ?? "";
              i++;
              break;
            }
          }
        }
        continue;
      }
      if (operandIndex === 0 && !a.unknown && spec.codeSubcommands?.includes(t)) {
        const next = args[i + 1];
        if (next?.unknown) return ctx.unknown(`${ctx.name} ${t} code is computed at run time`);
        code = next?.text ?? "";
        i++;
        continue;
      }
      operandIndex++;
      if (spec.names.includes("deno")) {
        // deno run [flags] FILE; other subcommands (test, fmt, lint, check, task...) are not interpreters.
        if (t === "run") continue;
        if (operandIndex === 1 && !/\.[cm]?[jt]sx?$/.test(t)) return denoSubcommand(t, args.slice(i + 1), ctx);
      }
      if (a.unknown) return ctx.unknown(`${ctx.name} runs a script chosen at run time`);
      scriptPath = t === "-" ? null : t;
      if (t === "-") break;
    }
    if (inPlace) await inPlaceEdit(spec, code, loop, rest, ctx);
    let origin = ctx.state.cwd;
    if (code === null && scriptPath !== null) {
      const abs = toAbsolute(scriptPath, ctx.state.cwd);
      code = abs ? await ctx.readScript(abs) : null;
      if (code === null) return ctx.unknown(`${ctx.name} ${scriptPath}: script cannot be read`);
      origin = posix.dirname(abs!);
    }
    if (code === null) {
      if (!ctx.stdinFed) return; // interactive REPL or --version
      const stdin = await ctx.stdin();
      if (stdin.kind !== "text") return ctx.unknown(`${ctx.name} runs ${spec.label} code from stdin (${stdin.kind === "unknown" ? stdin.why : "file list"})`);
      code = stdin.text;
    }
    if (spec.language === null) {
      if (code.trim() !== "") ctx.unknown(`${ctx.name} runs ${spec.label} code, which the gate does not read: ${code.slice(0, 60)}`);
      return;
    }
    // perl -pi -e 's/a/b/': the code is the edit, judged above.
    if (inPlace && classifyPerlEdit(code, loop) === "edit") return;
    await judgeCode(spec.language, code, ctx, { root: origin, paths: [], dir: origin, read: new Set() });
  };
}

/** perl/ruby -i: the operands are rewritten; dropping or blanking lines destroys content. */
async function inPlaceEdit(spec: InterpreterSpec, code: string | null, loop: string, operands: Arg[], ctx: RuleContext): Promise<void> {
  const files = operands.filter((a) => a.unknown !== undefined || !a.text.startsWith("-"));
  const kind = code !== null && (spec.language === "perl" || spec.language === "ruby") ? classifyPerlEdit(code, loop) : "destructive";
  const edit = kind === "edit";
  await ctx.targets(
    files,
    "write",
    edit ? `${ctx.name} -i substitutes in place` : `${ctx.name} -i rewrites the file (lines may be dropped)`,
    edit ? {} : { destructive: true },
  );
}

const denoSubcommand = async (sub: string, rest: Arg[], ctx: RuleContext): Promise<void> => {
  if (sub === "fmt") {
    const { flags, operands } = splitArgs(rest, { withValue: ["ext", "config", "c", "ignore"] });
    if (flags.has("check")) return;
    await ctx.targets(
      operands.length ? operands : [{ text: ".", glob: false, src: "." }],
      "write",
      "deno fmt rewrites",
      operands.length ? {} : { contents: true },
    );
    return;
  }
  if (sub === "task") return ctx.unknown(`deno task ${rest[0]?.text ?? ""}: task effects unknown`);
  if (sub === "repl") return;
  // test, bench, check, lint, doc, info, types, compile, install, upgrade, --version: no file effect here.
};

/** Where imports are looked up: the script's folder (or the working directory for inline code), the importing file's folder, the files read so far. */
interface ImportOrigin {
  root: string | null;
  /** More folders the code put on its search path (absolute). */
  paths: string[];
  dir: string | null;
  read: Set<string>;
}

/** At most this many of the project's own module files are read for one command. */
const MAX_MODULE_FILES = 24;

/** The files a module may be, for a project-relative import (`blog.db`, `.models`, `./lib/db`); none for an installed package. */
function moduleFiles(language: Language, spec: string, origin: ImportOrigin): string[] {
  if (language === "python") {
    const dots = /^\.*/.exec(spec)![0].length;
    const rest = spec.slice(dots).split(".").filter(Boolean);
    const files = (base: string) => {
      const path = posix.join(base, ...rest);
      return rest.length ? [`${path}.py`, `${path}/__init__.py`] : [`${path}/__init__.py`];
    };
    if (dots === 0) return [...(origin.root === null ? [] : [origin.root]), ...origin.paths].flatMap(files);
    let base = origin.dir;
    if (base === null) return [];
    for (let i = 1; i < dots; i++) base = posix.dirname(base);
    return files(base);
  }
  if (!spec.startsWith(".") && !spec.startsWith("/")) return [];
  if (!spec.startsWith("/") && origin.dir === null) return [];
  const path = spec.startsWith("/") ? spec : posix.join(origin.dir!, spec);
  return [path, ...[".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"].map((e) => path + e), `${path}/index.js`, `${path}/index.ts`];
}

/** An import the scanner does not model: the project's own module is read and judged as code; anything else is not understood. */
async function judgeImport(language: Language, ref: ImportRef, ctx: RuleContext, origin: ImportOrigin): Promise<void> {
  // require("./users.json") reads data: no code runs.
  if (language === "node" && ref.spec.endsWith(".json") && moduleFiles(language, ref.spec, origin).length > 0) return;
  for (const file of moduleFiles(language, ref.spec, origin)) {
    if (origin.read.has(file)) return;
    const text = await ctx.readScript(file);
    if (text === null) continue;
    origin.read.add(file);
    if (origin.read.size > MAX_MODULE_FILES) return ctx.unknown(`${language} code imports more of its project's modules than the gate reads`);
    return judgeCode(language, text, ctx, { ...origin, dir: posix.dirname(file) });
  }
  if (ref.optional) return;
  ctx.unknown(`${language} code uses the module ${ref.spec}, whose effects the gate does not model`);
}

async function judgeCode(language: Language, code: string, ctx: RuleContext, origin: ImportOrigin): Promise<void> {
  const scan = scanCode(language, code);
  for (const o of scan.opaque) ctx.unknown(o);
  for (const p of scan.searchPaths) {
    const abs = toAbsolute(p.startsWith("~") ? expandTilde(p, ctx.state.home) : p, ctx.state.cwd);
    if (abs && !origin.paths.includes(abs)) origin.paths.push(abs);
  }
  for (const ref of scan.imports) await judgeImport(language, ref, ctx, origin);
  for (const s of scan.shell) await ctx.script(s, `${language} shell-out`);
  if (scan.deletes.length || scan.writes.length) {
    const op: PathOp = scan.deletes.length ? "delete" : "write";
    const why = `${language} code calls ${[...scan.deletes, ...scan.writes].join(", ")}`;
    const paths = scan.literals.map((l) => (l.startsWith("~") ? expandTilde(l, ctx.state.home) : l));
    if (paths.length === 0) ctx.unknown(`${why} on paths computed at run time`);
    // A whole-file write over an existing file loses its content, like cp or `write` over it,
    // unless the code read that same file first (a read-modify-write is an edit, like sed -i).
    const targets = scan.writeTargets;
    const rewrite = targets.length > 0 && targets.every((t) => scan.readArgs.includes(t));
    const literalTargets = targets.every((t) => /^(['"]).*\1$/.test(t)) ? targets.map((t) => t.slice(1, -1)) : null;
    const replaces = (p: string) => op === "write" && scan.truncates.length > 0 && !rewrite && (literalTargets === null || literalTargets.includes(p));
    for (const p of paths) {
      const arg = { text: p, glob: false, src: p };
      if (replaces(p)) await outputFile(ctx, arg, `${language} code writes`);
      else
        await ctx.targets([arg], op, why, {
          destructive: op === "delete",
          recursive: /rmtree|rm_rf|rm_r|remove_tree|rmSync|recursive|deleteDir|rm\s*\(/.test(code),
        });
    }
  } else if (scan.reads.length) {
    for (const p of scan.literals)
      await ctx.targets([{ text: p.startsWith("~") ? expandTilde(p, ctx.state.home) : p, glob: false, src: p }], "read", `${language} code reads`);
  }
}

/** The interpreter rule for a script run by its shebang (rules/shells.ts), by program name. */
export function interpreterFor(name: string): Rule | undefined {
  return RULES.get(name);
}

const RULES = new Map<string, Rule>(INTERPRETERS.flatMap((spec) => spec.names.map((n) => [n, interpreterRule(spec)] as const)));

export const INTERPRETER_RULES: RuleTable = [...RULES];

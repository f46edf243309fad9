/**
 * Interpreter one-liners and scripts (python -c, node -e, perl -e, ruby -e, php -r, lua -e,
 * Rscript -e, julia -e, tclsh): which file APIs they call and which literal path strings they
 * mention. Heuristic by nature; code it cannot read (exec/eval, decoding, shell-outs with
 * computed strings) is reported as unknown. Languages without a scanner here are never read:
 * their code is not understood (rules/interpreters.ts).
 */

import { type Language, spawnCalls } from "./spawns.ts";

export type { Language };

export interface CodeScan {
  readonly deletes: string[];
  readonly writes: string[];
  /** Whole-file writes that replace a file's content (open "w", writeFile, File.write...). */
  readonly truncates: string[];
  /** The first argument of each whole-file write, as written (`"out.txt"`, `p`); empty when none was found. */
  readonly writeTargets: string[];
  /** The first argument of each file read (`open(p)`, `readFileSync("a")`), as written. */
  readonly readArgs: string[];
  /** Literal shell commands passed to os.system / subprocess / execSync / system / backticks. */
  readonly shell: string[];
  /** Reasons the code cannot be understood statically. */
  readonly opaque: string[];
  /** Literal strings that may be paths. */
  readonly literals: string[];
  /** Modules it imports that the scanner does not model (python and node): read by the caller where they are the project's own files. */
  readonly imports: ImportRef[];
  /** Folders the code adds to its module search path as literals (`sys.path.insert(0, "src")`). */
  readonly searchPaths: string[];
  /** Reads secrets/files: not judged here (the path policy sees read effects for literals). */
  readonly reads: string[];
}

const DELETE_APIS: Record<Language, RegExp[]> = {
  python: [
    /\bshutil\.rmtree\b/,
    /\bos\.(remove|unlink|rmdir|removedirs)\b/,
    /\.(unlink|rmdir)\s*\(/,
    /\bshutil\.move\b/,
    /\bos\.(rename|replace)\b/,
    /\brmtree\b/,
  ],
  node: [
    /\b(rmSync|rm|rmdir|rmdirSync|unlink|unlinkSync|rename|renameSync)\s*\(/,
    /\bfs\.promises\.(rm|rmdir|unlink|rename)\b/,
    /\brimraf\b/,
    /\bremove(Sync)?\s*\(/,
    /\bDeno\.(remove|removeSync|rename|renameSync)\b/,
  ],
  perl: [/\bunlink\b/, /\brmtree\b/, /\bremove_tree\b/, /\brmdir\b/, /\brename\b/, /\bmove\s*\(/],
  ruby: [
    /FileUtils\.(rm_rf|rm_r|rm|rm_f|remove_dir|remove_entry|remove_entry_secure|rmdir|mv|move)\b/,
    /\bFile\.(delete|unlink|rename)\b/,
    /\bDir\.(rmdir|delete|unlink)\b/,
  ],
  php: [/\b(unlink|rmdir|rename)\s*\(/, /['"](unlink|rmdir)['"]/],
  lua: [/\bos\.(remove|rename)\b/],
  r: [/\b(file\.remove|unlink|file\.rename)\s*\(/],
  julia: [/\b(rm|mv)\s*\(/],
  tcl: [/\bfile\s+(delete|rename)\b/],
};

/** Call arguments with one level of nested parentheses: `open(os.path.join(a, b), "w")`. */
const ARGS = String.raw`(?:[^()]|\([^()]*\))*`;
const re = (source: string) => new RegExp(source);

const WRITE_APIS: Record<Language, RegExp[]> = {
  python: [
    re(String.raw`\bopen\s*\(${ARGS},\s*(?:mode\s*=\s*)?['"][^'"]*[wax+][^'"]*['"]`),
    /\.write_(text|bytes)\s*\(/,
    /\bos\.(truncate|chmod|chown)\b/,
    /\bshutil\.(copy|copyfile|copy2|copytree|chown)\b/,
    /\.truncate\s*\(/,
  ],
  node: [
    /\b(writeFile|writeFileSync|appendFile|appendFileSync|truncate|truncateSync|copyFile|copyFileSync|cp|cpSync|chmod|chmodSync|createWriteStream|mkdir|mkdirSync)\s*\(/,
    /\bDeno\.(writeTextFile|writeTextFileSync|writeFile|writeFileSync|truncate|truncateSync|create|createSync|copyFile|copyFileSync|mkdir|mkdirSync|chmod|chmodSync)\b/,
    /\bBun\.write\b/,
  ],
  perl: [/\bopen\s*\(?\s*(?:my\s+|our\s+|local\s+)?[\w$*]+\s*,\s*['"]\s*(>|>>|\+<|\+>)/, /\btruncate\b/, /\bchmod\b/],
  ruby: [re(String.raw`\bFile\.(write|open\s*\(${ARGS}['"][wa])`), /FileUtils\.(cp|cp_r|touch|chmod|chmod_R|mkdir_p|ln_s|ln_sf)\b/, /\bIO\.write\b/],
  php: [re(String.raw`\b(file_put_contents|fopen\s*\(${ARGS}['"][wax]|copy|chmod|touch)\s*\(`)],
  lua: [re(String.raw`\bio\.open\s*\(${ARGS},\s*['"][wa+]`), /\bio\.output\b/],
  r: [
    /\b(writeLines|write|write\.csv|write\.table|saveRDS|save|sink|file\.copy|file\.create|dir\.create|Sys\.chmod)\s*\(/,
    re(String.raw`\bfile\s*\(${ARGS}['"][wa]`),
    re(String.raw`\bcat\s*\(${ARGS}\bfile\s*=`),
  ],
  julia: [/\b(write|touch|cp|mkdir|mkpath|chmod)\s*\(/, re(String.raw`\bopen\s*\(${ARGS}['"][wa+]`)],
  tcl: [/\bfile\s+(copy|mkdir|attributes)\b/, /\bopen\s+\S+\s+[wa]/],
};

/** The file argument of whole-file writes (group 1), per language. */
const FIRST_ARG = String.raw`\s*\(\s*([^,()]+?)\s*`;
const WRITE_TARGETS: Partial<Record<Language, RegExp>> = {
  python: re(String.raw`\bopen${FIRST_ARG},\s*(?:mode\s*=\s*)?['"][^'"a]*w`),
  node: re(
    String.raw`\b(?:writeFileSync|writeFile|truncateSync|truncate|Deno\.writeTextFileSync|Deno\.writeTextFile|Deno\.writeFileSync|Deno\.writeFile|Bun\.write)${FIRST_ARG}[,)]`,
  ),
  ruby: re(String.raw`\b(?:File\.write|IO\.write)${FIRST_ARG}[,)]|\bFile\.open${FIRST_ARG},\s*['"]w`),
  php: re(String.raw`\bfile_put_contents${FIRST_ARG},|\bfopen${FIRST_ARG},\s*['"][wx]`),
  perl: /\bopen\s*\(?\s*(?:my\s+|our\s+|local\s+)?[\w$*]+\s*,\s*(?:['"]\s*\+?>(?!>)\s*['"]\s*,\s*([^,()]+?)\s*[,)]|(['"])\s*\+?>(?!>)\s*([^'"]+)\2)/,
  lua: re(String.raw`\bio\.open${FIRST_ARG},\s*['"]w`),
};
/** The file argument of reads (group 1). */
const READ_ARGS: Partial<Record<Language, RegExp>> = {
  python: re(String.raw`\bopen${FIRST_ARG}(?:\)|,\s*(?:mode\s*=\s*)?['"]r)`),
  node: re(String.raw`\b(?:readFileSync|readFile|Deno\.readTextFileSync|Deno\.readTextFile|Bun\.file)${FIRST_ARG}[,)]`),
  ruby: re(String.raw`\b(?:File\.read|IO\.read|File\.readlines)${FIRST_ARG}[,)]`),
  php: re(String.raw`\bfile_get_contents${FIRST_ARG}[,)]`),
  perl: /\bopen\s*\(?\s*(?:my\s+|our\s+|local\s+)?[\w$*]+\s*,\s*(?:['"]\s*<\s*['"]\s*,\s*([^,()]+?)\s*[,)]|(['"])\s*<?\s*([^'">|]+)\2)/,
  lua: re(String.raw`\bio\.(?:open|lines)${FIRST_ARG}(?:\)|,\s*['"]r)`),
};

function firstArgs(r: RegExp | undefined, code: string): string[] {
  if (!r) return [];
  const g = new RegExp(r.source, "g");
  const out: string[] = [];
  for (const m of code.matchAll(g)) {
    const arg = m[1] ?? (m[3] !== undefined ? `"${m[3]}"` : undefined);
    if (arg !== undefined) out.push(arg.trim());
  }
  return out;
}

/** Writes that replace a whole file's content (a subset of WRITE_APIS). */
const TRUNCATE_APIS: Record<Language, RegExp[]> = {
  python: [re(String.raw`\bopen\s*\(${ARGS},\s*(?:mode\s*=\s*)?['"][^'"a]*w[^'"a]*['"]`), /\.write_(text|bytes)\s*\(/, /\btruncate\b/],
  node: [
    /\b(writeFile|writeFileSync|truncate|truncateSync|copyFile|copyFileSync)\s*\(/,
    /\bDeno\.(writeTextFile|writeTextFileSync|writeFile|writeFileSync|truncate|truncateSync|create|createSync)\b/,
    /\bBun\.write\b/,
  ],
  perl: [/\bopen\s*\(?\s*(?:my\s+|our\s+|local\s+)?[\w$*]+\s*,\s*['"]\s*(>(?!>)|\+>)/, /\btruncate\b/],
  ruby: [re(String.raw`\bFile\.(write|open\s*\(${ARGS}['"]w)`), /\bIO\.write\b/],
  php: [/\bfile_put_contents\s*\((?![^;]*FILE_APPEND)/, re(String.raw`\bfopen\s*\(${ARGS}['"][wx]`)],
  lua: [re(String.raw`\bio\.open\s*\(${ARGS},\s*['"]w`), /\bio\.output\b/],
  r: [/\b(writeLines|write\.csv|write\.table|saveRDS|save|sink)\s*\(/, re(String.raw`\bfile\s*\(${ARGS}['"]w`)],
  julia: [/\bwrite\s*\(/, re(String.raw`\bopen\s*\(${ARGS}['"]w`)],
  tcl: [/\bopen\s+\S+\s+w/],
};

const SHELL_APIS: Record<Language, RegExp> = {
  python: /\b(os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|os\.posix_spawnp?)\s*\(|\bsubprocess\b|\bpty\.spawn\b/,
  node: /\b(execSync|exec|spawn|spawnSync|execFile|execFileSync|fork)\s*\(|\bchild_process\b|\bBun\.spawn|\bDeno\.(Command|run)\b|\$`/,
  perl: /\b(system|exec)\b|`|\bqx\b/,
  ruby: /\b(system|exec|spawn|%x)\b|`|\bOpen3\b|\bIO\.popen\b/,
  php: /\b(system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\s*\(|`/,
  lua: /\bos\.execute\b|\bio\.popen\b/,
  r: /\b(system|system2|shell)\s*\(/,
  julia: /\b(run|pipeline|spawn)\s*\(|`/,
  tcl: /\bexec\b|\bopen\s+["{]?\|/,
};

const OPAQUE: Record<Language, RegExp> = {
  python: /\b(exec|eval|compile|__import__|getattr|importlib)\s*\(|b64decode|codecs\.decode|bytes\.fromhex|\.decode\s*\(\s*['"]rot/,
  node: /\b(eval|Function)\s*\(|Buffer\.from\([^)]*['"]base64|atob\s*\(|\brequire\s*\(\s*[^'"\s]/,
  perl: /\beval\b|decode_base64|\bpack\s*\(/,
  ruby: /\b(eval|instance_eval|send|public_send)\b|Base64|\.unpack/,
  php: /\b(eval|assert|base64_decode|create_function)\s*\(/,
  lua: /\b(load|loadstring|loadfile|dofile|require)\s*\(|string\.char/,
  r: /\b(eval|parse|source|do\.call|get|match\.fun|rawToChar)\s*\(/,
  julia: /\b(eval|include|include_string)\s*\(|Meta\.parse|@eval/,
  tcl: /\b(eval|uplevel|subst|source|interp)\b/,
};

const NOT_PATHS = new Set([
  "r",
  "w",
  "a",
  "x",
  "rb",
  "wb",
  "ab",
  "r+",
  "w+",
  "a+",
  "rb+",
  "wb+",
  "utf-8",
  "utf8",
  "ascii",
  "latin-1",
  "\n",
  "",
  " ",
  "-c",
  "-e",
  "shell",
  "base64",
]);

/**
 * Modules whose file and process effects the scanner sees through the APIs above (or that have
 * none): standard-library modules only. Code that imports anything else does what that module
 * does: the project's own modules are read and judged like the code (rules/interpreters.ts); a
 * database driver, an archive library or an installed package is not understood.
 */
const KNOWN_MODULES: Partial<Record<Language, ReadonlySet<string>>> = {
  python: new Set(
    (
      "__future__ abc argparse array ast base64 binascii bisect builtins calendar cmath codecs collections colorsys concurrent configparser contextlib contextvars copy copyreg csv " +
      "dataclasses datetime decimal difflib enum errno filecmp fnmatch fractions functools gc getopt getpass gettext glob graphlib gzip bz2 lzma hashlib " +
      "heapq hmac html inspect io ipaddress itertools json keyword locale logging math mimetypes numbers operator optparse os pathlib pickle platform pprint queue " +
      "random re reprlib sched secrets shlex shutil signal stat statistics string struct subprocess sys sysconfig tempfile textwrap threading time " +
      "timeit tokenize tomllib traceback types typing unicodedata uuid warnings weakref zlib zoneinfo"
    ).split(" "),
  ),
  node: new Set(
    "assert buffer child_process console crypto events fs os path perf_hooks process querystring readline stream string_decoder timers url util zlib".split(
      " ",
    ),
  ),
};

/** A module imported by code: as written (`blog.db`, `.models`, `./lib/db`), and whether it may be absent (`from pkg import name`: name may be a plain attribute). */
export interface ImportRef {
  spec: string;
  optional: boolean;
}

const topName = (language: Language, spec: string): string =>
  language === "python" ? (spec.split(".")[0] ?? "") : spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] ?? "");

/** The modules `code` imports, as written; standard-library modules the scanner models are left out. */
export function importedModules(language: Language, code: string): ImportRef[] {
  const known = KNOWN_MODULES[language];
  if (!known) return [];
  const out: ImportRef[] = [];
  if (language === "python") {
    for (const m of code.matchAll(/(?:^|[;\n:])[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w \t,]+)|import[ \t]+([\w. \t,]+))/g)) {
      if (m[1] !== undefined) {
        out.push({ spec: m[1], optional: false });
        for (const part of m[2]!.split(",")) {
          const name = part.trim().split(/\s+/)[0] ?? "";
          if (name && name !== "*") out.push({ spec: m[1].endsWith(".") ? `${m[1]}${name}` : `${m[1]}.${name}`, optional: true });
        }
      } else
        for (const part of m[3]!.split(",")) {
          const name = part.trim().split(/\s+/)[0] ?? "";
          if (name) out.push({ spec: name, optional: false });
        }
    }
  } else if (language === "node") {
    const spec =
      /\brequire\s*\(\s*(['"`])([^'"`\n]+)\1|\bimport\s*\(\s*(['"`])([^'"`\n]+)\3|(?:^|[;\n])\s*import\s+(?:[\w*{}\s,$]+\s+from\s+)?(['"])([^'"\n]+)\5|\bfrom\s+(['"])([^'"\n]+)\7/g;
    for (const m of code.matchAll(spec)) out.push({ spec: (m[2] ?? m[4] ?? m[6] ?? m[8] ?? "").replace(/^node:/, ""), optional: false });
  }
  const seen = new Set<string>();
  return out.filter((r) => {
    if (!r.spec || seen.has(r.spec) || known.has(topName(language, r.spec))) return false;
    seen.add(r.spec);
    return true;
  });
}

export function scanCode(language: Language, code: string): CodeScan {
  const deletes = DELETE_APIS[language].filter((r) => r.test(code)).map((r) => matchText(r, code));
  const writes = WRITE_APIS[language].filter((r) => r.test(code)).map((r) => matchText(r, code));
  const truncates = TRUNCATE_APIS[language].filter((r) => r.test(code)).map((r) => matchText(r, code));
  const opaque: string[] = [];
  if (OPAQUE[language].test(code)) opaque.push(`${language} code evaluates or decodes dynamic code (${matchText(OPAQUE[language], code)})`);

  const literals = stringLiterals(code);
  const shell: string[] = [];
  if (SHELL_APIS[language].test(code)) {
    // Every spawn call, in each argument form: a literal one is judged as the command it runs.
    const spawned = spawnCalls(language, code);
    shell.push(...spawned.commands, ...backtickCommands(code, language));
    opaque.push(...spawned.opaque);
    if (shell.length === 0 && spawned.opaque.length === 0) opaque.push(`${language} code runs shell commands: ${matchText(SHELL_APIS[language], code)}`);
  }
  const reads = /\bopen\s*\(|readFile|File\.read|file_get_contents|\bread_text\b/.test(code) ? ["reads files"] : [];
  // Module names (`require("fs")`, `import x from "y"`, `require "fileutils"`) are not paths.
  const modules = new Set(
    [...code.matchAll(/\b(?:require|import|from|__import__|import_module|library|dofile|using)\s*\(?\s*(['"])([^'"\n]+)\1/g)].map((m) => m[2]!),
  );
  const writeTargets = truncates.length ? firstArgs(WRITE_TARGETS[language], code) : [];
  const readArgs = truncates.length ? firstArgs(READ_ARGS[language], code) : [];
  return {
    deletes,
    writes,
    truncates,
    writeTargets,
    readArgs,
    shell,
    opaque,
    literals: literals.filter((l) => looksLikePath(l) && !modules.has(l)),
    reads,
    imports: importedModules(language, code),
    searchPaths:
      language === "python" ? [...code.matchAll(/\bsys\.path\.(?:insert\s*\(\s*-?\d+\s*,|append\s*\()\s*(['"])([^'"\n]+)\1\s*\)/g)].map((m) => m[2]!) : [],
  };
}

function matchText(r: RegExp, code: string): string {
  return (r.exec(code)?.[0] ?? r.source).trim().slice(0, 40);
}

/** Single- and double-quoted string literals (no interpolation handling). */
export function stringLiterals(code: string): string[] {
  const out: string[] = [];
  const re = /(['"])((?:\\.|(?!\1)[^\\\n])*)\1/g;
  for (let m = re.exec(code); m; m = re.exec(code)) out.push((m[2] ?? "").replace(/\\(.)/g, "$1"));
  return out;
}

function looksLikePath(s: string): boolean {
  if (NOT_PATHS.has(s.toLowerCase())) return false;
  if (s.length > 300 || /[\n\t]/.test(s)) return false;
  if (/^[%{}]|%[sd]/.test(s)) return false;
  if (/\s/.test(s) && !s.includes("/")) return false;
  return true;
}

/** Command-substitution literals: perl, ruby, php and julia backticks. */
function backtickCommands(code: string, language: Language): string[] {
  const out: string[] = [];
  const backticks = language === "perl" || language === "ruby" || language === "php" || language === "julia" ? /`([^`]*)`/g : null;
  if (backticks) for (let m = backticks.exec(code); m; m = backticks.exec(code)) out.push(m[1] ?? "");
  return out;
}

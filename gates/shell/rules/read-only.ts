/**
 * Programs that only read: no file effect, or a read of each file operand (the path policy
 * judges secrets). echo, printf and cat also report what they print, for a later `| sh`.
 */
import { toAbsolute } from "../expand.ts";
import { splitArgs } from "../options.ts";
import { outputFile } from "./output-files.ts";
import type { Rule, RuleTable } from "./types.ts";

const noEffect: Rule = async () => {};

/** Prints its operands' content: a read of each file operand (the path policy judges secrets). */
function reader(withValue: string[] = [], skipOperands = 0): Rule {
  return async (args, ctx) => {
    const { operands } = splitArgs(args, { withValue });
    const files = operands.slice(skipOperands).filter((a) => a.text !== "-");
    await ctx.targets(files, "read", `${ctx.name} reads`);
    if (ctx.name === "cat" && files.length >= 1) {
      const texts: string[] = [];
      for (const f of files) {
        const abs = f.unknown ? null : toAbsolute(f.text, ctx.state.cwd);
        const t = abs && !f.glob ? await ctx.readScript(abs) : null;
        if (t === null) return;
        texts.push(t);
      }
      ctx.setOutput({ kind: "text", text: texts.join("") });
    } else if (ctx.name === "cat") {
      ctx.setOutput(await ctx.stdin());
    }
  };
}

const echo: Rule = async (args, ctx) => {
  let i = 0;
  while (i < args.length && /^-[neE]+$/.test(args[i]!.text)) i++;
  const rest = args.slice(i);
  if (rest.some((a) => a.unknown)) return;
  ctx.setOutput({ kind: "text", text: rest.map((a) => a.text).join(" ") + "\n" });
};

const printf: Rule = async (args, ctx) => {
  const vIdx = args.findIndex((a) => a.text === "-v");
  if (vIdx >= 0 && args[vIdx + 1]) {
    ctx.setVar(args[vIdx + 1]!.text, null, "set by printf -v");
    return;
  }
  const [fmt, ...rest] = args;
  if (!fmt || fmt.unknown || rest.some((a) => a.unknown)) return;
  const text = fmt.text.includes("%") ? (rest.length ? fmt.text.replace(/%s/g, () => rest.shift()?.text ?? "") : fmt.text) : fmt.text;
  if (text.includes("%")) return;
  ctx.setOutput({ kind: "text", text: text.replace(/\\n/g, "\n").replace(/\\t/g, "\t") });
};

const awk: Rule = async (args, ctx) => {
  const { values, operands } = splitArgs(args, { withValue: ["F", "v", "f", "i", "e"] });
  const inplace = (values.get("i") ?? []).includes("inplace");
  const prog = values.has("f") || values.has("e") ? null : operands[0];
  const files = values.has("f") || values.has("e") ? operands : operands.slice(1);
  if (prog?.unknown) ctx.unknown(`awk program computed at run time (${prog.src})`);
  for (const e of values.get("e") ?? [])
    if (/\bsystem\s*\(|print[^;}]*>|\|\s*"|getline/.test(e)) ctx.unknown(`awk program writes or runs commands (${e.slice(0, 40)})`);
  if (prog && !prog.unknown && /\bsystem\s*\(|print[^;}]*>|\|\s*"|getline/.test(prog.text))
    ctx.unknown(`awk program writes or runs commands (${prog.text.slice(0, 40)})`);
  if (values.has("f")) ctx.unknown("awk -f program not analysed");
  // gawk -i inplace rewrites each file with what the program prints: lines may be dropped.
  if (inplace) for (const f of files) await outputFile(ctx, f, `${ctx.name} -i inplace rewrites`);
  else await ctx.targets(files, "read", `${ctx.name} reads`);
};

// Builtins, system queries, compilers and test runners whose file effects stay in build outputs,
// and pure filters (stdin to stdout).
// biome-ignore format: a packed word list reads better than one word per line
const READ_ONLY = [
  "ls", "ll", "pwd", "which", "whereis", "type", "stat", "du", "df", "true", "false", ":", "test", "[", "[[", "whoami", "id",
  "uname", "hostname", "ps", "top", "sleep", "seq", "history", "exit", "return", "set", "shift", "shopt", "hash", "alias", "unalias",
  "basename", "dirname", "realpath", "readlink", "file", "jobs", "wait", "kill", "uptime", "free", "lsof", "printenv",
  "locale", "tput", "clear", "git-lfs", "node-gyp", "nproc", "getconf", "cal", "bc", "expr", "yes", "mktemp", "let", "declare",
  "local", "export", "readonly", "typeset", "break", "continue", "umask", "ulimit", "tsc", "jest", "vitest", "mocha", "ava", "tap",
  "pytest", "rustc", "gcc", "cc", "g++", "clang", "clang++", "javac", "java", "ping", "dig", "nslookup", "host", "whois", "traceroute",
  "sha1sum", "sha224sum", "sha384sum", "sha512sum", "shasum", "md5", "cksum", "b2sum", "sum", "bg", "fg", "bind", "caller", "compgen",
  "complete", "compopt", "dirs", "disown", "enable", "getopts", "help", "logout", "suspend", "times", "groups", "who", "w", "last",
  "lsblk", "lscpu", "lsusb", "lspci", "vmstat", "iostat", "netstat", "ss", "man", "info", "tldr", "apropos", "whatis", "locate",
  "pgrep", "pidof", "tty", "stty", "logname", "users", "arch", "numfmt", "factor", "tsort", "look", "pathchk",
  "tr", "rev", "shuf", "expand", "unexpand", "join", "pv", "envsubst", "fzf", "delta", "diff-so-fancy", "colordiff", "icdiff", "wdiff",
  "highlight", "pygmentize", "hexyl", "glow", "mdcat", "jless", "gron", "fx", "xclip", "xsel", "pbcopy", "pbpaste", "wl-copy",
  "wl-paste", "notify-send", "cowsay", "figlet", "lolcat", "ts", "ag", "ack", "exa", "eza", "lsd", "tokei", "cloc",
  "scc", "mypy", "pyright", "flake8", "pylint", "cargo-clippy", "golangci-lint", "staticcheck", "tflint",
  "hadolint", "shellcheck", "yamllint", "markdownlint", "cspell", "codespell", "actionlint",
];

// biome-ignore format: a packed word list reads better than one word per line
const READERS: Record<string, string[]> = {
  cat: [], tac: [], head: ["n", "c", "lines", "bytes"], tail: ["n", "c", "lines", "bytes", "s", "sleep-interval", "pid"], less: [], more: [],
  nl: [], wc: [], od: ["A", "t", "N", "j", "w"], hexdump: ["n", "s", "e", "f"], strings: ["n", "t"],
  base64: ["w"], base32: ["w"], cut: ["d", "f", "c", "b"], diff: [], cmp: [], comm: [], paste: ["d"],
  fold: ["w"], fmt: ["w"], column: ["s", "t"], jq: [], md5sum: [], sha256sum: [], bat: [], view: [],
  zcat: [], gzcat: [], bzcat: [], xzcat: [], zstdcat: [], lz4cat: [], zless: [], zmore: [], zdiff: [], zgrep: ["e", "f"],
};

export const READ_ONLY_RULES: RuleTable = [
  ...READ_ONLY.map((n) => [n, noEffect] as const),
  ...Object.entries(READERS).map(([n, v]) => [n, reader(v, n === "jq" || n === "zgrep" ? 1 : 0)] as const),
  ["grep", reader(["e", "f", "m", "A", "B", "C", "regexp", "file", "max-count", "context", "include", "exclude", "exclude-dir"], 1)],
  ["egrep", reader(["e", "f", "m", "A", "B", "C"], 1)],
  ["fgrep", reader(["e", "f", "m", "A", "B", "C"], 1)],
  ["rg", reader(["e", "f", "g", "glob", "t", "type", "T", "m", "A", "B", "C", "max-count", "regexp", "context", "r", "replace"], 1)],
  ["echo", echo],
  ["printf", printf],
  ["awk", awk],
  ["gawk", awk],
  ["mawk", awk],
  ["nawk", awk],
];

/**
 * The rule for a program shell-ast has no rule for. What such a program does is not known, so
 * the gate looks at what it is given, by capability, and asks (never denies) when it is given
 * something it could act on beyond the workspace's ordinary files:
 *
 * - inline code: an interpreter-like flag (`-e`, `-c`, `-E`, `-r`, `--eval`, `--exec`,
 *   `--execute`, `--command`, `--code`, `--expr`, `--query`, `--sql`...) whose value is shaped
 *   like code (spaces, brackets, quotes, operators), or an `eval`/`exec` subcommand with such a
 *   value -> "unknown program with inline code";
 * - input on stdin: a pipe, a heredoc, a here-string or a `<` redirection (not /dev/null) may be
 *   SQL, a patch, an edit script, a list of paths or code the program applies -> "input on stdin
 *   to a program that may apply it";
 * - paths: every operand shaped like a path (a `/`, a leading `~` or `.`, a glob; bare words too
 *   when the cwd is not a workspace root's descendant) and every `--opt=/path` / `key=/path`
 *   value becomes an `unsure` effect: gate.ts resolves it with the path policy's own machinery
 *   (links, `..`, `~`) and asks when the real path lies outside the workspace ("unknown program
 *   given a path outside the workspace: ~/...") or is protected; a secret it may read is denied
 *   like `cat` would be.
 *
 * A program with only in-workspace, non-code operands and nothing on stdin keeps no effect, as
 * before: blocking every unknown binary would make the gate useless.
 */
import { WORKSPACE } from "../../../kernel/sandbox-paths.ts";
import { isInside } from "../../path-policy/paths.ts";
import type { Arg } from "../expand.ts";
import { COMMAND_RULES } from "./index.ts";
import { commandName, unversioned, type RuleContext } from "./types.ts";

/** Short flags that take inline code in interpreters and database clients. */
const CODE_SHORT = new Set(["e", "c", "E", "r"]);
/** Long flags that take inline code (exact names; `--eval=CODE` too). */
const CODE_LONG = new Set(["eval", "exec", "execute", "command", "code", "expr", "expression", "query", "sql", "statement", "script-string", "run-code"]);
/** Subcommands that evaluate their next operand. */
const CODE_SUBCOMMANDS = new Set(["eval", "exec", "run-code", "repl-eval"]);

/**
 * A value shaped like code rather than a name, a number, a path or `key=value`: it has white
 * space, brackets, quotes, statement or shell operators.
 */
export function looksLikeCode(text: string): boolean {
  if (text === "") return false;
  if (/^[\w.+-]+=[^\s;(){}|&<>$`'"]*$/.test(text)) return false; // key=value
  return /[\s;(){}[\]|&<>$`'"!]/.test(text);
}

/** A remote or URL operand (`https://x/y`, `host:path`, `user@host:dir`): not a local path. */
function isRemote(text: string): boolean {
  return /^[a-zA-Z][\w+.-]*:\/\//.test(text) || /^[\w.-]*@?[\w.-]+:(?!\/\/)/.test(text);
}

/** Operand text that names a file rather than a word: a slash, a leading ~ or ., a glob. */
function pathShaped(text: string): boolean {
  return text.includes("/") || text.startsWith("~") || text === "." || text === ".." || text.startsWith("./") || /[*?[]/.test(text);
}

/** What the unknown-program rule found in a command (exported for tests). */
export interface UnknownFindings {
  code: string | null;
  /** Operands (and option values) to judge as paths. */
  paths: Arg[];
}

export function scanUnknownArgs(args: readonly Arg[], bareWordsArePaths: boolean): UnknownFindings {
  let code: string | null = null;
  const paths: Arg[] = [];
  let operandIndex = 0;
  let afterDashDash = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (!afterDashDash && !a.unknown && t === "--") {
      afterDashDash = true;
      continue;
    }
    if (!afterDashDash && !a.unknown && t.startsWith("-") && t.length > 1) {
      const long = t.startsWith("--");
      const eq = t.indexOf("=");
      const name = long ? t.slice(2, eq >= 0 ? eq : undefined) : t.slice(1);
      const attached = eq >= 0 ? t.slice(eq + 1) : null;
      // `-e CODE`, and a short cluster ending in a code letter (`-ne CODE`).
      const isCodeFlag = long ? CODE_LONG.has(name) : /^[a-zA-Z]{0,3}$/.test(name.slice(0, -1)) && CODE_SHORT.has(name.slice(-1));
      if (isCodeFlag && code === null) {
        const value = attached ?? args[i + 1]?.text ?? null;
        const next = attached === null ? args[i + 1] : undefined;
        if (value !== null && (looksLikeCode(value) || next?.unknown !== undefined)) code = `${t}${attached === null ? ` ${value}` : ""}`;
      }
      if (long && attached !== null && (attached.startsWith("/") || attached.startsWith("~") || attached.startsWith("./") || attached.startsWith("../")))
        paths.push({ ...a, text: attached, src: a.src });
      continue;
    }
    if (operandIndex === 0 && !a.unknown && CODE_SUBCOMMANDS.has(t) && code === null) {
      const next = args[i + 1];
      if (next && (next.unknown !== undefined || looksLikeCode(next.text))) code = `${t} ${next.text}`;
    }
    operandIndex++;
    if (a.unknown) {
      // Only the literal prefix is known: judge it when it already names a place.
      if (a.text.startsWith("/")) paths.push({ text: a.text.slice(0, a.text.lastIndexOf("/") + 1) || "/", glob: false, src: a.src });
      continue;
    }
    if (t === "" || isRemote(t)) continue;
    const kv = /^[A-Za-z_][\w.-]*=(.*)$/s.exec(t);
    if (kv) {
      const v = kv[1]!;
      if (v.startsWith("/") || v.startsWith("~")) paths.push({ ...a, text: v });
      continue;
    }
    if (pathShaped(t) || bareWordsArePaths) paths.push(a);
  }
  return { code, paths };
}

/**
 * The index of a command line inside an unknown program's arguments (`tool -q -- rm -rf x`,
 * `with-env rm -rf x`): the operand after `--`, or the first operand, when it names a program
 * with a rule. Null otherwise.
 */
export function embeddedCommand(args: readonly Arg[], hasRule: (name: string) => boolean): number | null {
  const dd = args.findIndex((a) => !a.unknown && a.text === "--");
  const k = dd >= 0 ? dd + 1 : args.findIndex((a) => a.unknown !== undefined || !a.text.startsWith("-"));
  const head = args[k];
  if (k < 0 || !head || head.unknown) return null;
  const name = commandName(head.text);
  return hasRule(name) || hasRule(unversioned(name) ?? "") ? k : null;
}

export async function unknownProgram(args: Arg[], ctx: RuleContext): Promise<void> {
  // A wrapper-shaped call: analyse the command line it carries, as for a known wrapper.
  const k = embeddedCommand(args, (n) => COMMAND_RULES.has(n));
  if (k !== null) await ctx.dispatch(args.slice(k), `${ctx.name} may run`);
  const name = ctx.name;
  const cwd = ctx.state.cwd;
  // A bare word names a file in the cwd; inside the workspace that is an ordinary file.
  const bare = cwd === null || !isInside(WORKSPACE, cwd);
  const { code, paths } = scanUnknownArgs(args, bare);
  if (code !== null) ctx.unknown(`unknown program ${name} with inline code (${code.slice(0, 60)})`);
  if (ctx.stdinFed) {
    const stdin = await ctx.stdin();
    const what = stdin.kind === "text" ? "text" : stdin.kind === "paths" ? "a list of paths" : stdin.why;
    ctx.unknown(`input on stdin to ${name}, a program that may apply it (${what.slice(0, 60)})`);
  }
  for (const p of paths) {
    for (const abs of await ctx.paths(p, `${name} operand`)) {
      const path = abs.endsWith("/\u0000") ? abs.slice(0, -2) || "/" : abs;
      ctx.effect({ op: "write", path, unsure: true, why: `unknown program ${name} given` });
    }
  }
}

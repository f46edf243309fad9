/**
 * Shells and shell builtins that run shell source: bash/sh -c, script files, source, eval,
 * trap, and a script run by its path (its shebang picks the interpreter). Shells with another
 * syntax (fish, csh, tcsh, nu, elvish, xonsh) are parsed as bash: simple commands read the same,
 * and what does not parse is not understood.
 */
import { toAbsolute, type Arg } from "../expand.ts";
import { interpreterFor } from "./interpreters.ts";
import { commandName, unversioned, type Rule, type RuleContext, type RuleTable } from "./types.ts";

const shellRule: Rule = async (args, ctx) => {
  let i = 0;
  let sawC = false;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.unknown) break;
    const t = a.text;
    if (t === "--") {
      i++;
      break;
    }
    if (t === "-o" || t === "+o" || t === "-O" || t === "+O") {
      i++;
      continue;
    }
    if (/^[-+][a-zA-Z]+$/.test(t)) {
      if (t.startsWith("-") && t.includes("c")) sawC = true;
      continue;
    }
    if (t.startsWith("--")) continue;
    break;
  }
  const operands = args.slice(i);
  // -n reads commands without running them.
  if (args.slice(0, i).some((a) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a.text))) return;
  if (sawC) {
    const src = operands[0];
    if (!src) return;
    if (src.unknown) return ctx.unknown(`${ctx.name} -c runs a string computed at run time (${src.src})`);
    const positional = new Map<string, string>([["0", operands[1]?.text ?? ctx.name]]);
    for (const [n, a] of operands.slice(2).entries()) positional.set(String(n + 1), a.text);
    await ctx.script(src.text, `${ctx.name} -c`, { extraVars: positional });
    return;
  }
  const scriptArg = operands[0];
  if (scriptArg) {
    if (scriptArg.unknown) return ctx.unknown(`${ctx.name} runs a script chosen at run time`);
    const abs = toAbsolute(scriptArg.text, ctx.state.cwd);
    const content = abs ? await ctx.readScript(abs) : null;
    if (content === null) return ctx.unknown(`${ctx.name} ${scriptArg.text}: script content cannot be read`);
    const positional = new Map<string, string>([["0", scriptArg.text]]);
    for (const [n, a] of operands.slice(1).entries()) positional.set(String(n + 1), a.text);
    await ctx.script(content, `${ctx.name} ${scriptArg.text}`, { extraVars: positional });
    return;
  }
  // No script and no -c: commands come from stdin.
  const stdin = await ctx.stdin();
  if (stdin.kind === "text") await ctx.script(stdin.text, `${ctx.name} reading stdin`);
  else if (ctx.command.pipedFrom !== null || ctx.command.redirects.length)
    ctx.unknown(`${ctx.name} runs commands from stdin: ${stdin.kind === "unknown" ? stdin.why : "a file list"}`);
  else ctx.unknown(`${ctx.name} starts an interactive shell`);
};

const source: Rule = async (args, ctx) => {
  const file = args[0];
  if (!file) return;
  if (file.unknown) return ctx.unknown(`source of a file chosen at run time (${file.src})`);
  const abs = toAbsolute(file.text, ctx.state.cwd);
  const content = abs ? await ctx.readScript(abs) : null;
  if (content === null) return ctx.unknown(`source ${file.text}: content cannot be read`);
  await ctx.script(content, `source ${file.text}`, { shared: true });
};

const evalRule: Rule = async (args, ctx) => {
  if (args.some((a) => a.unknown)) return ctx.unknown("eval of a string computed at run time");
  const text = args.map((a) => a.text).join(" ");
  ctx.unknown(`eval: ${text.slice(0, 80)}`);
  await ctx.script(text, "eval");
};

const trap: Rule = async (args, ctx) => {
  const action = args[0];
  if (!action || action.text.startsWith("-")) return;
  if (action.unknown) return ctx.unknown("trap with a computed action");
  await ctx.script(action.text, "trap action");
};

/** Runs a script file by path (`./x.sh`, `/tmp/x.sh`): analyse its content when readable. */
export async function runScriptFile(path: string, args: Arg[], ctx: RuleContext): Promise<void> {
  const abs = toAbsolute(path, ctx.state.cwd);
  const content = abs ? await ctx.readScript(abs) : null;
  if (content === null) {
    ctx.unknown(`runs ${path}, whose content cannot be read`);
    return;
  }
  const shebang = /^#!\s*(\S+)(?:\s+(-S\s+)?(\S+))?/.exec(content);
  const interp = shebang ? commandName(shebang[1] === "/usr/bin/env" || shebang[1] === "/bin/env" ? (shebang[3] ?? "") : shebang[1]!) : "sh";
  if (SHELL_NAMES.has(interp) || SHELL_NAMES.has(unversioned(interp) ?? "")) {
    await ctx.script(content, `script ${path}`, { extraVars: new Map([["0", path], ...positionalVars(args)]) });
    return;
  }
  const rule = interpreterFor(interp) ?? interpreterFor(unversioned(interp) ?? "");
  if (rule) {
    await rule([{ text: abs!, glob: false, src: path }, ...args], ctx);
    return;
  }
  ctx.unknown(`runs ${path} with ${interp}, which is not analysed`);
}

function positionalVars(args: Arg[]): Map<string, string> {
  const m = new Map<string, string>();
  args.forEach((a, i) => {
    if (!a.unknown) m.set(String(i + 1), a.text);
  });
  return m;
}

const SHELL_NAMES = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "oksh", "fish", "csh", "tcsh", "nu", "elvish", "xonsh"]);

export const SHELL_RULES: RuleTable = [
  ...[...SHELL_NAMES].map((n) => [n, shellRule] as const),
  ["source", source],
  [".", source],
  ["eval", evalRule],
  ["trap", trap],
];

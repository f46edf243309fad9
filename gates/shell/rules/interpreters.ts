/**
 * Language interpreters (python, node, perl, ruby, php): inline code, a script file or code on
 * stdin is scanned for file and shell calls (../interpreters.ts); perl/ruby -i edit in place.
 */
import type { PathOp } from "../../path-policy/judge.ts";
import { expandTilde, toAbsolute, type Arg } from "../expand.ts";
import { scanCode, type Language } from "../interpreters.ts";
import type { Rule, RuleContext, RuleTable } from "./types.ts";

const perlOrInterpreter =
  (language: Language): Rule =>
  async (args, ctx) => {
    // perl -i / -pi -e: edits files in place; -e/-c code: scanned.
    const codeFlags = language === "python" ? ["c"] : language === "php" ? ["r"] : ["e", "E"];
    let code: string | null = null;
    let inPlace = false;
    let scriptPath: string | null = null;
    const rest: Arg[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const t = a.text;
      if (code === null && scriptPath === null && t.startsWith("-") && t !== "-" && !a.unknown) {
        if (t === "--") continue;
        if (language === "python" && t === "-m") {
          const mod = args[i + 1]?.text ?? "";
          if (!SAFE_PYTHON_MODULES.has(mod)) ctx.unknown(`python -m ${mod}: module effects not analysed`);
          return;
        }
        const letters = t.startsWith("--") ? "" : t.slice(1);
        if ((language === "perl" || language === "ruby") && letters.includes("i")) inPlace = true;
        const codeLetter = [...letters].find((l) => codeFlags.includes(l));
        if (codeLetter || (language === "node" && (t === "--eval" || t === "-p" || t === "--print"))) {
          const after = letters.slice(letters.indexOf(codeLetter ?? "e") + 1);
          const next = args[i + 1];
          if (next?.unknown) {
            ctx.unknown(`${ctx.name} code is computed at run time`);
            return;
          }
          code = after && language === "python" ? after : (next?.text ?? "");
          if (!(after && language === "python")) i++;
          continue;
        }
        continue;
      }
      if (code === null && scriptPath === null) {
        if (a.unknown) {
          ctx.unknown(`${ctx.name} runs a script chosen at run time`);
          return;
        }
        scriptPath = t;
        continue;
      }
      rest.push(a);
    }
    if (inPlace) await ctx.targets(rest, "write", `${ctx.name} -i edits in place`);
    if (code === null && scriptPath !== null) {
      const abs = toAbsolute(scriptPath, ctx.state.cwd);
      code = abs ? await ctx.readScript(abs) : null;
      if (code === null) {
        ctx.unknown(`${ctx.name} ${scriptPath}: script cannot be read`);
        return;
      }
    }
    if (code === null) {
      const stdin = await ctx.stdin();
      if (ctx.command.pipedFrom !== null || ctx.command.redirects.some((r) => r.heredoc || r.op === "<" || r.op === "<<<")) {
        if (stdin.kind !== "text") {
          ctx.unknown(`${ctx.name} runs code from stdin (${stdin.kind === "unknown" ? stdin.why : "file list"})`);
          return;
        }
        code = stdin.text;
      } else return; // interactive REPL or --version
    }
    await judgeCode(language, code, ctx);
  };

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
]);

async function judgeCode(language: Language, code: string, ctx: RuleContext): Promise<void> {
  const scan = scanCode(language, code);
  for (const o of scan.opaque) ctx.unknown(o);
  for (const s of scan.shell) await ctx.script(s, `${language} shell-out`);
  if (scan.deletes.length || scan.writes.length) {
    const op: PathOp = scan.deletes.length ? "delete" : "write";
    const why = `${language} code calls ${[...scan.deletes, ...scan.writes].join(", ")}`;
    const paths = scan.literals.map((l) => (l.startsWith("~") ? expandTilde(l, ctx.state.home) : l));
    if (paths.length === 0) ctx.unknown(`${why} on paths computed at run time`);
    for (const p of paths)
      await ctx.targets([{ text: p, glob: false, src: p }], op, why, {
        destructive: op === "delete",
        recursive: /rmtree|rm_rf|rm_r|remove_tree|rmSync|recursive/.test(code),
      });
  } else if (scan.reads.length) {
    for (const p of scan.literals)
      await ctx.targets([{ text: p.startsWith("~") ? expandTilde(p, ctx.state.home) : p, glob: false, src: p }], "read", `${language} code reads`);
  }
}

export const INTERPRETER_RULES: RuleTable = [
  ["perl", perlOrInterpreter("perl")],
  ["python", perlOrInterpreter("python")],
  ["python3", perlOrInterpreter("python")],
  ["python2", perlOrInterpreter("python")],
  ["node", perlOrInterpreter("node")],
  ["nodejs", perlOrInterpreter("node")],
  ["ruby", perlOrInterpreter("ruby")],
  ["php", perlOrInterpreter("php")],
];

/**
 * Per-command rules: what each known program reads, writes or destroys, and how wrappers
 * hand over to their payload. A command without a rule is treated as having no file effect
 * (over-blocking every unknown binary would make the gate useless); its redirections are
 * still judged.
 */
import { posix } from "node:path";
import type { Arg } from "./expand.ts";
import { toAbsolute, expandTilde } from "./expand.ts";
import { hasAny, splitArgs } from "./options.ts";
import type { EffectOp, Output, RuleContext } from "./analyze.ts";
import { scanCode, type Language } from "./interpreters.ts";
import { gitRule } from "./git.ts";
import { listFindDeletions, planRsync } from "./dry-run.ts";

export type Rule = (args: Arg[], ctx: RuleContext) => Promise<void>;

export function commandName(text: string): string {
  const base = text.includes("/") ? text.slice(text.lastIndexOf("/") + 1) : text;
  return base;
}

const lit = (text: string): Arg => ({ text, glob: false, src: text });

// ---------------------------------------------------------------- read-only

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

// ---------------------------------------------------------------- navigation / state

const cd: Rule = async (args, ctx) => {
  const operands = args.filter((a) => !/^-[LPe@]+$/.test(a.text));
  const target = operands[0];
  if (!target) return ctx.setCwd(ctx.state.home);
  if (target.unknown) return ctx.setCwd(null);
  if (target.text === "-") return ctx.setCwd(null);
  if (target.text === "") return; // `cd ""` stays
  const abs = toAbsolute(target.text, ctx.state.cwd);
  ctx.setCwd(abs);
};

const read: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, { withValue: ["a", "d", "n", "N", "p", "t", "u", "i"] });
  for (const o of operands.length ? operands : [lit("REPLY")]) ctx.setVar(o.text, null, `$${o.text} is read from input`);
};

// ---------------------------------------------------------------- destroyers

const rm: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args);
  const recursive = hasAny(flags, "r", "R", "recursive");
  await ctx.targets(operands, "delete", recursive ? `${ctx.name} -r deletes` : `${ctx.name} deletes`, { recursive, destructive: true });
};

const rmdir: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args);
  // rmdir only removes empty directories: no data is lost.
  await ctx.targets(operands, "delete", "rmdir removes an empty directory", { destructive: false });
};

const shred: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: ["n", "s", "iterations", "size", "random-source"] });
  const del = hasAny(flags, "u", "remove", "zero");
  await ctx.targets(operands, del ? "delete" : "write", "shred destroys content", { destructive: true });
};

const truncate: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, { withValue: ["s", "size", "r", "reference"] });
  await ctx.targets(operands, "write", "truncate changes the file size (content lost)", { destructive: true });
};

const dd: Rule = async (args, ctx) => {
  for (const a of args) {
    if (a.text.startsWith("of=")) await ctx.targets([{ ...a, text: a.text.slice(3) }], "write", "dd of= overwrites", { destructive: true });
    else if (a.text.startsWith("if=")) await ctx.targets([{ ...a, text: a.text.slice(3) }], "read", "dd if= reads");
  }
};

/** mv / cp / ln / install: the destination (existing file overwritten, or dir/basename). */
function copyLike(kind: "mv" | "cp" | "ln" | "install"): Rule {
  return async (args, ctx) => {
    const withValue = kind === "ln" ? ["t", "target-directory", "S", "suffix"] : ["t", "target-directory", "S", "suffix", "m", "mode", "o", "owner", "g", "group"];
    const { flags, values, operands } = splitArgs(args, { withValue });
    const targetDir = values.get("t")?.[0] ?? values.get("target-directory")?.[0];
    const noClobber = hasAny(flags, "n", "no-clobber") || (kind === "ln" && !hasAny(flags, "f", "force"));
    let sources = operands;
    let dest: Arg | undefined;
    if (targetDir !== undefined) dest = lit(targetDir);
    else {
      dest = operands.at(-1);
      sources = operands.slice(0, -1);
    }
    if (!dest) return;
    if (kind === "ln" && sources.length === 0) {
      sources = [dest];
      dest = lit(".");
    }
    if (kind === "mv") await ctx.targets(sources, "delete", "mv removes the source", { recursive: true, destructive: true });
    else if (kind === "cp") await ctx.targets(sources, "read", "cp reads");
    const destPaths = await ctx.paths(dest, `${kind} destination`);
    for (const d of destPaths) {
      if (d.endsWith("/\u0000")) {
        ctx.effect({ op: "write", path: d.slice(0, -2) || "/", contents: true, why: `${kind} writes into`, destructive: !noClobber });
        continue;
      }
      const info = await ctx.env.lstat(d);
      const intoDir = info?.type === "dir" && !hasAny(flags, "T", "no-target-directory");
      const finals = intoDir ? sources.map((s) => posix.join(d, posix.basename(s.unknown ? "*" : s.text))) : [d];
      for (const f of finals) {
        const existing = intoDir ? await ctx.env.lstat(f) : info;
        const overwrites = existing !== null && !noClobber;
        const recursive = kind !== "ln" && (hasAny(flags, "r", "R", "a", "recursive", "archive") || kind === "mv") && existing?.type === "dir";
        ctx.effect({
          op: "write",
          path: f,
          why: overwrites ? `${kind} overwrites the existing ${existing?.type ?? "file"}` : `${kind} creates`,
          ...(overwrites ? { destructive: true } : {}),
          ...(recursive ? { recursive: true } : {}),
        });
      }
    }
  };
}

const sed: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: ["e", "expression", "f", "file", "l", "line-length"] });
  const inPlace = [...flags].some((f) => f === "i" || f.startsWith("in-place")) || args.some((a) => /^-[a-zA-Z]*i/.test(a.text) && !a.text.startsWith("--"));
  const hasScriptOption = values.has("e") || values.has("expression") || values.has("f") || values.has("file");
  const files = hasScriptOption ? operands : operands.slice(1);
  const script = hasScriptOption ? [...(values.get("e") ?? []), ...(values.get("expression") ?? [])].join("\n") : (operands[0]?.text ?? "");
  if (/(^|[;}\s\d$\/])w\s+\S/.test(script) || /\be\b\s/.test(script)) ctx.unknown(`sed script writes or executes (${script.slice(0, 40)})`);
  if (inPlace) await ctx.targets(files, "write", "sed -i rewrites the file");
  else {
    await ctx.targets(files, "read", "sed reads");
    ctx.setOutput({ kind: "unknown", why: "sed output" });
  }
};

const perlOrInterpreter = (language: Language): Rule => async (args, ctx) => {
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

const SAFE_PYTHON_MODULES = new Set(["pytest", "unittest", "json.tool", "http.server", "venv", "pip", "doctest", "py_compile", "compileall", "timeit", "pydoc", "site", "platform", "mypy", "black", "ruff", "flake8", "pylint", "isort"]);

async function judgeCode(language: Language, code: string, ctx: RuleContext): Promise<void> {
  const scan = scanCode(language, code);
  for (const o of scan.opaque) ctx.unknown(o);
  for (const s of scan.shell) await ctx.script(s, `${language} shell-out`);
  if (scan.deletes.length || scan.writes.length) {
    const op: EffectOp = scan.deletes.length ? "delete" : "write";
    const why = `${language} code calls ${[...scan.deletes, ...scan.writes].join(", ")}`;
    const paths = scan.literals.map((l) => (l.startsWith("~") ? expandTilde(l, ctx.state.home) : l));
    if (paths.length === 0) ctx.unknown(`${why} on paths computed at run time`);
    for (const p of paths) await ctx.targets([{ text: p, glob: false, src: p }], op, why, { destructive: op === "delete", recursive: /rmtree|rm_rf|rm_r|remove_tree|rmSync|recursive/.test(code) });
  } else if (scan.reads.length) {
    for (const p of scan.literals) await ctx.targets([{ text: p.startsWith("~") ? expandTilde(p, ctx.state.home) : p, glob: false, src: p }], "read", `${language} code reads`);
  }
}

const tee: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args);
  const append = hasAny(flags, "a", "append");
  await ctx.targets(operands, "write", append ? "tee -a appends" : "tee writes");
  const stdin = await ctx.stdin();
  for (const o of operands) {
    const abs = o.unknown ? null : toAbsolute(o.text, ctx.state.cwd);
    if (abs) ctx.recordWrite(abs, stdin.kind === "text" && !append ? stdin.text : null);
  }
  ctx.setOutput(stdin);
};

const touchLike = (why: string): Rule => async (args, ctx) => {
  const { operands } = splitArgs(args, { withValue: ["m", "mode", "d", "date", "r", "reference", "t", "Z", "context"] });
  await ctx.targets(operands, "write", why);
};

const chmodLike: Rule = async (args, ctx) => {
  // `chmod -x f`: a symbolic mode that looks like a flag; once taken out, no operand is the mode.
  const dashMode = (a: { text: string }) => ctx.name === "chmod" && /^-[rwxXst]+$/.test(a.text);
  const modeAsFlag = args.some(dashMode);
  const { flags, operands } = splitArgs(args.filter((a) => !dashMode(a)), { withValue: ["reference", "from"] });
  const recursive = hasAny(flags, "R", "recursive");
  const files = flags.has("reference") || modeAsFlag ? operands : operands.slice(1);
  await ctx.targets(files, "write", `${ctx.name}${recursive ? " -R" : ""} changes permissions`, recursive ? { recursive: true, destructive: true } : {});
};

const rsync: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: ["e", "rsh", "exclude", "include", "filter", "f", "files-from", "exclude-from", "include-from", "backup-dir", "suffix", "chmod", "T", "temp-dir", "B", "block-size", "port", "log-file", "partial-dir"] });
  const dest = operands.at(-1);
  const sources = operands.slice(0, -1);
  if (!dest) return;
  const remote = (a: Arg) => /^[^/]*:/.test(a.text);
  if (remote(dest)) ctx.effect({ op: "write", path: `remote:${dest.text}`, external: true, why: "rsync to a remote host" });
  else {
    const del = [...flags].some((f) => f.startsWith("delete") || f === "del");
    // A read-only `rsync -n -i` names exactly what would be deleted and written.
    const plan = del && !ctx.worldChangedEarlier ? await planRsync(ctx.env, ctx.state.cwd, args) : null;
    if (plan) {
      for (const d of plan.deletions) ctx.effect({ op: "delete", path: d.path, recursive: d.isDir, destructive: true, why: "rsync --delete removes (dry run)" });
      for (const w of plan.writes) ctx.effect({ op: "write", path: w.path, why: w.existed ? "rsync overwrites (dry run)" : "rsync creates (dry run)", ...(w.existed && !w.isDir ? { destructive: true } : {}) });
      if (hasAny(flags, "remove-source-files")) await ctx.targets(sources, "delete", "rsync --remove-source-files", { recursive: true, destructive: true });
      return;
    }
    // With --delete the destination ends up a copy of the source: treat it as deleting the destination.
    await ctx.targets([dest], del ? "delete" : "write", del ? "rsync --delete removes destination files missing from the source" : "rsync writes", { recursive: true, destructive: del });
    if (!del) await ctx.targets([dest], "write", "rsync overwrites files in the destination", { recursive: true });
  }
  if (hasAny(flags, "remove-source-files")) await ctx.targets(sources.filter((s) => !remote(s)), "delete", "rsync --remove-source-files", { recursive: true, destructive: true });
};

const tar: Rule = async (args, ctx) => {
  // Old-style bundled first argument: `tar xzf a.tgz`.
  const norm = [...args];
  if (norm[0] && !norm[0].text.startsWith("-") && /^[A-Za-z]+$/.test(norm[0].text)) norm[0] = { ...norm[0], text: "-" + norm[0].text };
  const { flags, values, operands } = splitArgs(norm, { withValue: ["f", "file", "C", "directory", "T", "files-from", "X", "exclude-from", "exclude", "transform", "use-compress-program", "I", "H", "format", "b", "blocking-factor", "owner", "group", "mode", "mtime", "newer", "N", "g", "listed-incremental"] });
  const archive = values.get("f")?.[0] ?? values.get("file")?.[0];
  const dir = values.get("C")?.[0] ?? values.get("directory")?.[0] ?? ".";
  if (hasAny(flags, "x", "extract", "get")) {
    await ctx.targets([lit(dir)], "write", "tar -x extracts (overwriting existing files)", { recursive: true, contents: true });
    if (archive) await ctx.targets([lit(archive)], "read", "tar reads the archive");
  } else if (hasAny(flags, "c", "create", "r", "append", "u", "update")) {
    if (archive && archive !== "-") await ctx.targets([lit(archive)], "write", "tar writes the archive");
    if (hasAny(flags, "remove-files")) {
      const base = dir === "." ? operands : operands.map((o) => ({ ...o, text: posix.join(dir, o.text) }));
      await ctx.targets(base, "delete", "tar --remove-files deletes the archived sources", { recursive: true, destructive: true });
    }
  } else if (hasAny(flags, "delete")) {
    if (archive) await ctx.targets([lit(archive)], "write", "tar --delete rewrites the archive", { destructive: true });
  }
};

const zip: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: ["b", "t", "tt", "n", "P", "password", "x", "i", "O", "output-file"] });
  const [archive, ...files] = operands;
  if (archive) await ctx.targets([archive], "write", "zip writes the archive");
  if (hasAny(flags, "m", "move")) await ctx.targets(files, "delete", "zip -m deletes the sources after archiving", { recursive: hasAny(flags, "r"), destructive: true });
  else await ctx.targets(files, "read", "zip reads");
};

const unzip: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: ["d", "x", "P"] });
  if (hasAny(flags, "l", "t", "v", "Z")) return;
  const dir = values.get("d")?.[0] ?? ".";
  await ctx.targets([lit(dir)], "write", hasAny(flags, "o") ? "unzip -o overwrites files" : "unzip extracts", { recursive: true, contents: true, destructive: hasAny(flags, "o") });
  if (operands[0]) await ctx.targets([operands[0]], "read", "unzip reads the archive");
};

const mkdir: Rule = touchLike("mkdir creates a directory");

// ---------------------------------------------------------------- wrappers

function wrapper(withValue: string[], opts: { skipFirstOperand?: boolean } = {}): Rule {
  return async (args, ctx) => {
    const { rest } = splitArgs(args, { withValue, stopAtOperand: true });
    const payload = opts.skipFirstOperand ? rest.slice(1) : rest;
    if (payload.length) await ctx.dispatch(payload, `${ctx.name} runs`);
  };
}

const sudo: Rule = async (args, ctx) => {
  const { flags, rest } = splitArgs(args, { withValue: ["u", "g", "p", "C", "h", "r", "t", "U", "D", "user", "group", "prompt", "chdir"], stopAtOperand: true });
  if (hasAny(flags, "s", "i", "shell", "login") && rest.length === 0) ctx.unknown(`${ctx.name} opens a root shell`);
  if (rest.length) await ctx.dispatch(rest, `${ctx.name} runs`);
};

const env: Rule = async (args, ctx) => {
  let i = 0;
  const extra = new Map<string, string>();
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === "-i" || t === "-" || t === "--ignore-environment" || t === "-0" || t === "--null") continue;
    if (t === "-u" || t === "--unset" || t === "-C" || t === "--chdir") {
      if (t === "-C" || t === "--chdir") ctx.unknown("env -C changes directory");
      i++;
      continue;
    }
    if (t === "-S" || t === "--split-string") {
      const s = args[i + 1];
      if (!s || s.unknown) ctx.unknown("env -S with a computed string");
      else await ctx.script([s.text, ...args.slice(i + 2).map((a) => a.text)].join(" "), "env -S");
      return;
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      extra.set(t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1));
      continue;
    }
    if (t.startsWith("-")) continue;
    break;
  }
  const payload = args.slice(i);
  if (payload.length) await ctx.dispatch(payload, "env runs");
};

const commandBuiltin: Rule = async (args, ctx) => {
  if (args.some((a) => a.text === "-v" || a.text === "-V")) return; // lookup only
  const payload = args.filter((a, i) => !(i === 0 && a.text === "-p"));
  if (payload.length) await ctx.dispatch(payload, `${ctx.name} runs`);
};

const exec: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["a"], stopAtOperand: true });
  if (rest.length) await ctx.dispatch(rest, "exec runs");
};

const timeout: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["k", "kill-after", "s", "signal"], stopAtOperand: true });
  if (rest.length > 1) await ctx.dispatch(rest.slice(1), "timeout runs");
};

const watch: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["n", "interval", "d", "differences", "q", "equexit"], stopAtOperand: true });
  if (rest.some((a) => a.unknown)) return ctx.unknown("watch runs a computed command");
  if (rest.length) await ctx.script(rest.map((a) => a.text).join(" "), "watch runs");
};

const busybox: Rule = async (args, ctx) => {
  if (args.length) await ctx.dispatch(args, "busybox applet");
};

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
  if (sawC) {
    const src = operands[0];
    if (!src) return;
    if (src.unknown) return ctx.unknown(`${ctx.name} -c runs a string computed at run time (${src.src})`);
    const positional = new Map<string, string>();
    operands.slice(2).forEach((a, n) => positional.set(String(n + 1), a.text));
    await ctx.script(src.text, `${ctx.name} -c`, { extraVars: positional });
    return;
  }
  const scriptArg = operands[0];
  if (scriptArg) {
    if (scriptArg.unknown) return ctx.unknown(`${ctx.name} runs a script chosen at run time`);
    const abs = toAbsolute(scriptArg.text, ctx.state.cwd);
    const content = abs ? await ctx.readScript(abs) : null;
    if (content === null) return ctx.unknown(`${ctx.name} ${scriptArg.text}: script content cannot be read`);
    const positional = new Map<string, string>();
    operands.slice(1).forEach((a, n) => positional.set(String(n + 1), a.text));
    await ctx.script(content, `${ctx.name} ${scriptArg.text}`, { extraVars: positional });
    return;
  }
  // No script and no -c: commands come from stdin.
  const stdin = await ctx.stdin();
  if (stdin.kind === "text") await ctx.script(stdin.text, `${ctx.name} reading stdin`);
  else if (ctx.command.pipedFrom !== null || ctx.command.redirects.length) ctx.unknown(`${ctx.name} runs commands from stdin: ${stdin.kind === "unknown" ? stdin.why : "a file list"}`);
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

const xargs: Rule = async (args, ctx) => {
  const { flags, values, rest } = splitArgs(args, { withValue: ["I", "i", "n", "L", "l", "P", "d", "delimiter", "s", "E", "e", "a", "arg-file", "max-args", "max-procs", "replace"], stopAtOperand: true });
  const payload = rest.length ? rest : [lit("echo")];
  const replace = values.get("I")?.[0] ?? values.get("replace")?.[0] ?? (flags.has("i") ? "{}" : undefined);
  const stdin = await ctx.stdin();
  const fromStdin: Arg[] =
    stdin.kind === "paths"
      ? stdin.args
      : stdin.kind === "text" && !stdin.text.includes("$") && !stdin.text.includes("`")
        ? stdin.text
            .split(flags.has("0") || flags.has("null") ? "\0" : /\s+/)
            .filter((s) => s !== "")
            .map((s) => ({ text: s, glob: false, src: s }))
        : [{ text: "", glob: false, src: "(xargs input)", unknown: `arguments come from stdin (${stdin.kind === "unknown" ? stdin.why : "text"})` }];
  if (replace !== undefined) {
    for (const input of fromStdin) {
      const argv = payload.map((a) => (a.text.includes(replace) ? (input.unknown || input.under ? { ...input, text: a.text.split(replace).join(input.text) } : { ...a, text: a.text.split(replace).join(input.text) }) : a));
      await ctx.dispatch(argv, "xargs -I runs");
    }
    return;
  }
  await ctx.dispatch([...payload, ...fromStdin], "xargs runs");
};

const FIND_VALUE_PREDICATES = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype", "-user", "-group",
  "-perm", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-maxdepth", "-mindepth", "-lname",
  "-ilname", "-links", "-inum", "-samefile", "-uid", "-gid", "-used", "-fstype", "-printf", "-newermt", "-context", "-regextype",
]);
const FIND_FILTERS = new Set([...FIND_VALUE_PREDICATES, "-empty", "-executable", "-readable", "-writable", "-nouser", "-nogroup"].filter((p) => p !== "-maxdepth" && p !== "-mindepth" && p !== "-printf" && p !== "-regextype"));

const find: Rule = async (args, ctx) => {
  const roots: Arg[] = [];
  let i = 0;
  while (i < args.length && (args[i]!.text === "-H" || args[i]!.text === "-L" || args[i]!.text === "-P")) i++;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (!args[i]!.unknown && (t.startsWith("-") || t === "(" || t === "!" || t === ")")) break;
    roots.push(args[i]!);
  }
  if (roots.length === 0) roots.push(lit("."));
  const expr = args.slice(i);
  const filtered = expr.some((a) => FIND_FILTERS.has(a.text));
  const minDepth = expr.findIndex((a) => a.text === "-mindepth");
  const skipsRoot = filtered || (minDepth >= 0 && Number(expr[minDepth + 1]?.text) >= 1);
  const matchArgs = (under: boolean): Arg[] => roots.map((r) => ({ ...r, under }));
  ctx.setOutput({ kind: "paths", args: matchArgs(true) });
  // A read-only listing with the same roots and filters names exactly what would be deleted.
  const deletes = expr.some((a) => a.text === "-delete" || a.text === "-exec" || a.text === "-execdir");
  const listed = deletes && !ctx.worldChangedEarlier ? await listFindDeletions(ctx.env, ctx.state.cwd, args) : null;
  if (listed) {
    for (const m of listed) ctx.effect({ op: "delete", path: m.path, recursive: m.isDir, destructive: true, why: "find deletes (dry run)" });
    return;
  }
  for (let j = 0; j < expr.length; j++) {
    const t = expr[j]!.text;
    if (t === "-delete") {
      await ctx.targets(roots, "delete", filtered ? "find -delete removes matching entries under" : "find -delete removes everything under", { recursive: true, destructive: true, ...(skipsRoot ? { contents: true } : {}) });
    } else if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") {
      const end = expr.findIndex((a, k) => k > j && (a.text === ";" || a.text === "+"));
      const payload = expr.slice(j + 1, end < 0 ? undefined : end);
      j = end < 0 ? expr.length : end;
      const argv: Arg[] = [];
      for (const p of payload) {
        if (p.text === "{}") argv.push(...matchArgs(skipsRoot).map((r) => (skipsRoot ? r : { ...r, under: false })));
        else if (p.text.includes("{}")) argv.push({ ...p, text: p.text, unknown: "find -exec argument built from each match" });
        else argv.push(p);
      }
      if (argv.length) await ctx.dispatch(argv, `find ${t}`, { kind: "paths", args: matchArgs(true) });
    } else if (t === "-fprint" || t === "-fprint0" || t === "-fprintf" || t === "-fls") {
      const f = expr[j + 1];
      if (f) await ctx.targets([f], "write", `find ${t} writes`);
      j++;
    }
  }
};

// ---------------------------------------------------------------- opaque runners and infrastructure

function confirmAlways(what: (args: Arg[]) => string | null, resource?: (args: Arg[]) => string): Rule {
  return async (args, ctx) => {
    const why = what(args);
    if (why === null) return;
    if (resource) ctx.effect({ op: "delete", path: resource(args), external: true, destructive: true, why });
    else ctx.unknown(why);
  };
}

const npmLike: Rule = async (args, ctx) => {
  const sub = args[0]?.text ?? "";
  const runs = ["run", "run-script", "test", "t", "start", "stop", "restart"];
  const yarnStyle = (ctx.name === "yarn" || ctx.name === "pnpm" || ctx.name === "bun") && sub !== "" && !PM_SUBCOMMANDS.has(sub);
  if (!runs.includes(sub) && !yarnStyle) {
    if (sub === "exec" || sub === "x" || sub === "dlx") ctx.unknown(`${ctx.name} ${sub} runs a package binary`);
    return;
  }
  const scriptName = sub === "run" || sub === "run-script" ? args[1]?.text : sub === "t" ? "test" : yarnStyle ? sub : sub;
  if (!scriptName) return;
  const cwd = ctx.state.cwd;
  const pkg = cwd ? await ctx.readScript(posix.join(cwd, "package.json")) : null;
  let body: string | undefined;
  try {
    const scripts = pkg ? (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts : undefined;
    const s = scripts?.[scriptName];
    if (typeof s === "string") body = s;
  } catch {
    /* unreadable package.json: unknown below */
  }
  if (body === undefined) return ctx.unknown(`${ctx.name} ${sub} ${scriptName}: script effects unknown`);
  await ctx.script(body, `${ctx.name} script "${scriptName}"`);
};
const PM_SUBCOMMANDS = new Set(["install", "i", "add", "remove", "ci", "build", "init", "list", "ls", "outdated", "upgrade", "up", "why", "info", "audit", "config", "cache", "pack", "publish", "link", "unlink", "version", "--version", "-v", "help"]);

const make: Rule = async (args, ctx) => {
  if (args.some((a) => /^-[a-zA-Z]*[nq]/.test(a.text) || a.text === "--dry-run" || a.text === "--just-print" || a.text === "--question")) return;
  const targets = args.filter((a) => !a.text.startsWith("-") && !a.text.includes("="));
  ctx.unknown(`${ctx.name} ${targets.map((t) => t.text).join(" ") || "(default target)"}: recipe effects unknown`);
};

const terraform: Rule = confirmAlways(
  (args) => {
    const sub = args.find((a) => !a.text.startsWith("-"))?.text;
    if (sub === "destroy" || (sub === "apply" && args.some((a) => a.text === "-destroy"))) return "terraform destroys infrastructure";
    if (sub === "apply" && args.some((a) => a.text.startsWith("-auto-approve"))) return "terraform apply -auto-approve changes infrastructure without review";
    return null;
  },
  () => "infrastructure:terraform",
);

const prisma: Rule = confirmAlways(
  (args) => {
    const words = args.map((a) => a.text);
    if (words[0] === "migrate" && words[1] === "reset") return "prisma migrate reset drops the database";
    if (words[0] === "db" && words[1] === "push" && words.some((w) => w === "--force-reset" || w === "--accept-data-loss")) return "prisma db push resets the database";
    return null;
  },
  () => "database:prisma",
);

const docker: Rule = confirmAlways(
  (args) => {
    const w = args.map((a) => a.text);
    if (["rm", "rmi", "kill"].includes(w[0] ?? "") || (w[1] === "prune") || (["volume", "image", "container", "network", "system"].includes(w[0] ?? "") && ["rm", "prune"].includes(w[1] ?? ""))) return `docker ${w.slice(0, 2).join(" ")} deletes resources`;
    return null;
  },
  (args) => `docker:${args.map((a) => a.text).join(" ")}`,
);

const kubectl: Rule = confirmAlways(
  (args) => (args[0]?.text === "delete" ? "kubectl delete removes cluster resources" : null),
  (args) => `kubernetes:${args.slice(1).map((a) => a.text).join(" ")}`,
);

const dbClient: Rule = async (args, ctx) => {
  const text = args.map((a) => a.text).join(" ");
  if (/\b(drop|truncate|delete\s+from)\b/i.test(text) || /\bflushall|flushdb\b/i.test(text)) ctx.effect({ op: "delete", path: `database:${ctx.name}`, external: true, destructive: true, why: `${ctx.name} runs a destructive statement` });
};

const curlLike: Rule = async (args, ctx) => {
  const isWget = ctx.name === "wget";
  const { flags, values, operands } = splitArgs(args, { withValue: isWget ? ["O", "output-document", "P", "directory-prefix", "o", "a", "U", "user-agent", "header", "e"] : ["o", "output", "H", "header", "d", "data", "X", "request", "u", "user", "A", "user-agent", "e", "referer", "F", "form", "T", "upload-file", "w", "write-out", "m", "max-time", "b", "cookie", "c", "cookie-jar", "x", "proxy", "K", "config", "data-raw", "data-binary"] });
  const out = isWget ? (values.get("O") ?? values.get("output-document")) : (values.get("o") ?? values.get("output"));
  for (const o of out ?? []) if (o !== "-") await ctx.targets([lit(o)], "write", `${ctx.name} downloads into`);
  if (!isWget && hasAny(flags, "O", "remote-name")) await ctx.targets([lit(".")], "write", "curl -O writes into", { contents: true });
  if (isWget && !out) await ctx.targets([lit(".")], "write", "wget downloads into", { contents: true });
  for (const u of values.get("T") ?? values.get("upload-file") ?? []) await ctx.targets([lit(u)], "read", "curl uploads");
  for (const d of [...(values.get("d") ?? []), ...(values.get("data-binary") ?? []), ...(values.get("F") ?? [])]) {
    const m = /@([^;]+)/.exec(d);
    if (m?.[1]) await ctx.targets([lit(m[1])], "read", `${ctx.name} uploads a file`);
  }
  void operands;
  ctx.setOutput({ kind: "unknown", why: `data downloaded by ${ctx.name}` });
};

const awk: Rule = async (args, ctx) => {
  const { values, operands } = splitArgs(args, { withValue: ["F", "v", "f", "i"] });
  const inplace = (values.get("i") ?? []).includes("inplace");
  const prog = values.has("f") ? null : operands[0];
  const files = values.has("f") ? operands : operands.slice(1);
  if (prog && !prog.unknown && /\bsystem\s*\(|print[^;}]*>|\|\s*"|getline/.test(prog.text)) ctx.unknown(`awk program writes or runs commands (${prog.text.slice(0, 40)})`);
  if (values.has("f")) ctx.unknown("awk -f program not analysed");
  await ctx.targets(files, inplace ? "write" : "read", inplace ? "awk -i inplace rewrites" : "awk reads");
};

const sortRule: Rule = async (args, ctx) => {
  const { values, operands } = splitArgs(args, { withValue: ["o", "output", "k", "key", "t", "field-separator", "S", "buffer-size", "T", "temporary-directory", "parallel", "files0-from"] });
  for (const o of [...(values.get("o") ?? []), ...(values.get("output") ?? [])]) await ctx.targets([lit(o)], "write", "sort -o writes");
  await ctx.targets(operands, "read", "sort reads");
};

const gitWrapper: Rule = async (args, ctx) => gitRule(args, ctx);

const rimraf: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, { withValue: ["glob"] });
  await ctx.targets(operands, "delete", `${ctx.name} deletes recursively`, { recursive: true, destructive: true });
};

const npx: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["p", "package", "c", "call"], stopAtOperand: true });
  if (rest.length) await ctx.dispatch(rest, "npx runs");
};

const pushd: Rule = async (args, ctx) => cd(args, ctx);
const popd: Rule = async (_args, ctx) => ctx.setCwd(null);


// ---------------------------------------------------------------- table

const READ_ONLY = [
  "ls", "ll", "pwd", "which", "whereis", "type", "stat", "du", "df", "true", "false", ":", "test", "[", "[[", "date", "whoami", "id",
  "uname", "hostname", "ps", "top", "sleep", "seq", "history", "exit", "return", "set", "shift", "shopt", "hash", "alias", "unalias",
  "basename", "dirname", "realpath", "readlink", "file", "tree", "jobs", "wait", "kill", "uptime", "free", "lsof", "env", "printenv",
  "locale", "tput", "clear", "git-lfs", "node-gyp", "nproc", "getconf", "cal", "bc", "expr", "yes", "mktemp", "let", "declare",
  "local", "export", "readonly", "typeset", "break", "continue", "umask", "ulimit", "tsc", "eslint", "prettier", "jest", "vitest",
  "pytest", "cargo", "go", "rustc", "gcc", "cc", "g++", "clang", "javac", "java", "mvn", "gradle", "dotnet", "ping", "dig", "nslookup",
  "ssh-keygen", "gpg", "openssl", "sha256sum", "sha1sum", "md5sum", "cksum", "b2sum", "tsx", "ts-node", "deno", "pip", "pip3", "uv",
];

const READERS: Record<string, string[]> = {
  cat: [], tac: [], head: ["n", "c", "lines", "bytes"], tail: ["n", "c", "lines", "bytes", "s", "sleep-interval", "pid"], less: [], more: [],
  nl: [], wc: [], od: ["A", "t", "N", "j", "w"], xxd: ["l", "s", "c", "g"], hexdump: ["n", "s", "e", "f"], strings: ["n", "t"],
  base64: ["w"], base32: ["w"], cut: ["d", "f", "c", "b"], uniq: ["f", "s", "w"], diff: [], cmp: [], comm: [], paste: ["d"],
  fold: ["w"], fmt: ["w"], column: ["s", "t"], jq: [], yq: [], iconv: ["f", "t"], md5sum: [], sha256sum: [], bat: [], view: [],
};

export const COMMAND_RULES = new Map<string, Rule>([
  ...READ_ONLY.map((n) => [n, noEffect] as const),
  ...Object.entries(READERS).map(([n, v]) => [n, reader(v, n === "jq" || n === "yq" ? 1 : 0)] as const),
  ["grep", reader(["e", "f", "m", "A", "B", "C", "regexp", "file", "max-count", "context", "include", "exclude", "exclude-dir"], 1)],
  ["egrep", reader(["e", "f", "m", "A", "B", "C"], 1)],
  ["fgrep", reader(["e", "f", "m", "A", "B", "C"], 1)],
  ["rg", reader(["e", "f", "g", "glob", "t", "type", "T", "m", "A", "B", "C", "max-count", "regexp", "context", "r", "replace"], 1)],
  ["echo", echo],
  ["printf", printf],
  ["cd", cd],
  ["pushd", pushd],
  ["popd", popd],
  ["read", read],
  ["mapfile", async (args, ctx) => ctx.setVar(args.filter((a) => !a.text.startsWith("-")).at(-1)?.text ?? "MAPFILE", null, "set by mapfile")],
  ["readarray", async (args, ctx) => ctx.setVar(args.filter((a) => !a.text.startsWith("-")).at(-1)?.text ?? "MAPFILE", null, "set by readarray")],
  ["rm", rm],
  ["rmdir", rmdir],
  ["unlink", rm],
  ["shred", shred],
  ["truncate", truncate],
  ["dd", dd],
  ["mv", copyLike("mv")],
  ["cp", copyLike("cp")],
  ["ln", copyLike("ln")],
  ["install", copyLike("install")],
  ["sed", sed],
  ["gsed", sed],
  ["perl", perlOrInterpreter("perl")],
  ["python", perlOrInterpreter("python")],
  ["python3", perlOrInterpreter("python")],
  ["python2", perlOrInterpreter("python")],
  ["node", perlOrInterpreter("node")],
  ["nodejs", perlOrInterpreter("node")],
  ["bun", npmLike],
  ["ruby", perlOrInterpreter("ruby")],
  ["php", perlOrInterpreter("php")],
  ["tee", tee],
  ["touch", touchLike("touch creates or updates")],
  ["mkdir", mkdir],
  ["chmod", chmodLike],
  ["chown", chmodLike],
  ["chgrp", chmodLike],
  ["rsync", rsync],
  ["tar", tar],
  ["zip", zip],
  ["unzip", unzip],
  ["git", gitWrapper],
  ["find", find],
  ["xargs", xargs],
  ["sudo", sudo],
  ["doas", sudo],
  ["env", env],
  ["command", commandBuiltin],
  ["builtin", commandBuiltin],
  ["exec", exec],
  ["nice", wrapper(["n", "adjustment"])],
  ["ionice", wrapper(["c", "n", "p", "class", "classdata"])],
  ["nohup", wrapper([])],
  ["time", wrapper(["f", "format", "o", "output"])],
  ["setsid", wrapper([])],
  ["stdbuf", wrapper(["i", "o", "e", "input", "output", "error"])],
  ["unbuffer", wrapper([])],
  ["chronic", wrapper([])],
  ["flock", wrapper(["w", "timeout", "E", "conflict-exit-code"], { skipFirstOperand: true })],
  ["timeout", timeout],
  ["watch", watch],
  ["busybox", busybox],
  ["bash", shellRule],
  ["sh", shellRule],
  ["zsh", shellRule],
  ["dash", shellRule],
  ["ksh", shellRule],
  ["source", source],
  [".", source],
  ["eval", evalRule],
  ["trap", trap],
  ["npm", npmLike],
  ["yarn", npmLike],
  ["pnpm", npmLike],
  ["npx", npx],
  ["rimraf", rimraf],
  ["del-cli", rimraf],
  ["trash", rimraf],
  ["make", make],
  ["gmake", make],
  ["just", make],
  ["terraform", terraform],
  ["tofu", terraform],
  ["prisma", prisma],
  ["docker", docker],
  ["podman", docker],
  ["kubectl", kubectl],
  ["psql", dbClient],
  ["mysql", dbClient],
  ["sqlite3", dbClient],
  ["redis-cli", dbClient],
  ["dropdb", async (args, ctx) => ctx.effect({ op: "delete", path: `database:${args.at(-1)?.text ?? "?"}`, external: true, destructive: true, why: "dropdb drops a database" })],
  ["curl", curlLike],
  ["wget", curlLike],
  ["awk", awk],
  ["gawk", awk],
  ["sort", sortRule],
]);

export type { Output };

/**
 * Programs that run another command: the payload is analysed as if it were written directly
 * (sudo, su -c, env, nice, timeout, strace, firejail, npx...). Fan-out runners hand every input
 * to their payload:
 * - xargs: items from stdin or `-a FILE` (split like xargs: blanks and quotes, lines with -I/-i,
 *   NULs with -0, -d's delimiter), appended or substituted for the replacement string of
 *   -I/-i/--replace/-J; the payload's stdin is /dev/null;
 * - GNU parallel: inputs from `:::`/`:::+` lists, `::::` files, -a or stdin (lines), substituted
 *   for `{}` `{.}` `{/}` `{//}` `{/.}` `{n}` or appended, the resulting line run by a shell (each
 *   word quoted with -q); no command: every input is a command line; --pipe feeds stdin to the
 *   payload; --dry-run only prints;
 * - fd/fdfind -x/-X: the payload runs on entries under the search paths;
 * - hyperfine: every operand is a shell command.
 * An input computed at run time reaches the payload as a run-time value (the gate asks).
 */
import { posix } from "node:path";
import { toAbsolute, type Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import { lit, type Output, type Rule, type RuleContext, type RuleTable } from "./types.ts";

function wrapper(withValue: string[], opts: { skipFirstOperand?: boolean } = {}): Rule {
  return async (args, ctx) => {
    const { rest } = splitArgs(args, { withValue, stopAtOperand: true });
    const payload = opts.skipFirstOperand ? rest.slice(1) : rest;
    if (payload.length) await ctx.dispatch(payload, `${ctx.name} runs`);
  };
}

const sudo: Rule = async (args, ctx) => {
  const { flags, rest } = splitArgs(args, {
    withValue: ["u", "g", "p", "C", "h", "r", "t", "U", "D", "user", "group", "prompt", "chdir"],
    stopAtOperand: true,
  });
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
  let i = 0;
  let lookup = false;
  for (; i < args.length && /^-[pvV]+$/.test(args[i]!.text); i++) if (/[vV]/.test(args[i]!.text)) lookup = true;
  if (args[i]?.text === "--") i++;
  if (lookup) return; // `command -v NAME`: a lookup only
  const payload = args.slice(i);
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
  const { flags, rest } = splitArgs(args, { withValue: ["n", "interval", "d", "differences", "q", "equexit"], stopAtOperand: true });
  if (rest.some((a) => a.unknown)) return ctx.unknown("watch runs a computed command");
  if (!rest.length) return;
  // watch joins its arguments into one `sh -c` string (with -x it runs them as they are): both readings.
  if (!hasAny(flags, "x", "exec")) await ctx.script(rest.map((a) => a.text).join(" "), "watch runs");
  await ctx.dispatch(rest, "watch -x runs");
};

const busybox: Rule = async (args, ctx) => {
  if (args.length) await ctx.dispatch(args, "busybox applet");
};

/** Splits xargs input: blank-separated with quotes and backslashes, or by lines (-I), NUL or a delimiter. */
export function splitXargsInput(text: string, mode: { nul?: boolean; delimiter?: string; lines?: boolean }): string[] | null {
  if (mode.nul) return text.split("\0").filter((s) => s !== "");
  if (mode.delimiter !== undefined) return text.split(mode.delimiter).filter((s) => s !== "");
  if (mode.lines)
    return text
      .split("\n")
      .map((l) => l.replace(/^[ \t]+/, ""))
      .filter((l) => l !== "");
  const out: string[] = [];
  let cur = "";
  let has = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return null; // xargs: unmatched quote
      cur += text.slice(i + 1, end);
      has = true;
      i = end;
    } else if (c === "\\" && i + 1 < text.length) {
      cur += text[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}

/** The items an input Output stands for: exact words, entries under a path, or one run-time value. */
function inputItems(input: Output, mode: { nul?: boolean; delimiter?: string; lines?: boolean }, what: string): Arg[] {
  if (input.kind === "paths") return input.args;
  if (input.kind === "text" && !input.text.includes("$") && !input.text.includes("`")) {
    const items = splitXargsInput(input.text, mode);
    if (items !== null) return items.map((t) => ({ text: t, glob: false, src: t }));
  }
  return [{ text: "", glob: false, src: `(${what})`, unknown: `${what} (${input.kind === "unknown" ? input.why : "text"})` }];
}

const XARGS_VALUES = new Set([
  "a",
  "arg-file",
  "d",
  "delimiter",
  "E",
  "I",
  "L",
  "n",
  "max-args",
  "P",
  "max-procs",
  "s",
  "max-chars",
  "process-slot-var",
  "J",
  "R",
  "S",
]);

const xargs: Rule = async (args, ctx) => {
  let replace: string | undefined;
  let argFile: string | undefined;
  let nul = false;
  let delimiter: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (a.unknown || t === "-" || !t.startsWith("-")) break;
    if (t === "--") {
      i++;
      break;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq > 0 ? t.slice(2, eq) : t.slice(2);
      const v = eq > 0 ? t.slice(eq + 1) : XARGS_VALUES.has(name) ? args[++i]?.text : undefined;
      if (name === "replace") replace = v ?? "{}";
      else if (name === "arg-file") argFile = v;
      else if (name === "delimiter") delimiter = v;
      else if (name === "null") nul = true;
      continue;
    }
    const letters = t.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const l = letters[j]!;
      const attached = letters.slice(j + 1);
      if (l === "0") nul = true;
      if (l === "i") replace = attached || "{}";
      if (l === "i" || l === "e" || l === "l") break; // optional attached value
      if (XARGS_VALUES.has(l)) {
        const v = attached || args[++i]?.text || "";
        if (l === "I" || l === "J") replace = v;
        if (l === "a") argFile = v;
        if (l === "d") delimiter = v.replace(/^\\n$/, "\n").replace(/^\\t$/, "\t");
        break;
      }
    }
  }
  const payload = args.slice(i).length ? args.slice(i) : [lit("echo")];
  let input: Output;
  if (argFile !== undefined) {
    const abs = toAbsolute(argFile, ctx.state.cwd);
    if (abs) ctx.effect({ op: "read", path: abs, why: "xargs -a reads its arguments from" });
    const text = abs ? await ctx.readScript(abs) : null;
    input = text === null ? { kind: "unknown", why: `content of ${argFile}` } : { kind: "text", text };
  } else input = await ctx.stdin();
  const items = inputItems(input, { nul, ...(delimiter !== undefined ? { delimiter } : {}), lines: replace !== undefined }, "arguments come from stdin");
  // GNU xargs gives the command /dev/null as stdin (with -a FILE, its own stdin).
  const opts = { stdinFed: argFile !== undefined ? ctx.stdinFed : false };
  if (replace !== undefined) {
    for (const item of items.slice(0, 64)) {
      const argv = payload.map((a) =>
        a.text.includes(replace!)
          ? item.unknown || item.under
            ? { ...item, text: a.text.split(replace!).join(item.text) }
            : { ...a, text: a.text.split(replace!).join(item.text) }
          : a,
      );
      await ctx.dispatch(argv, "xargs -I runs", undefined, opts);
    }
    return;
  }
  await ctx.dispatch([...payload, ...items], "xargs runs", undefined, opts);
};

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
/** A variable the payload line reads for an input known only at run time. */
const INPUT_VAR = "parallel_input";

/** Shell text standing for one input item in a payload line: quoted, or a run-time value under a known prefix. */
function itemText(item: Arg): string {
  if (item.unknown) return `${item.text ? q(item.text) : ""}"$${INPUT_VAR}"`;
  if (item.under) return `${q(item.text.endsWith("/") ? item.text : `${item.text}/`)}"$${INPUT_VAR}"`;
  return q(item.text);
}

const PARALLEL_REPLACEMENTS = /\{(\d*)(\.|\/|\/\/|\/\.)?\}|\{#\}|\{%\}/g;

/** One command word as a single shell word: its literal pieces quoted, the replacements substituted. */
function quoteAround(word: string, job: Arg[]): string {
  let out = "";
  let last = 0;
  for (const m of word.matchAll(PARALLEL_REPLACEMENTS)) {
    if (m.index! > last) out += q(word.slice(last, m.index));
    out += substitute(m[0], job).text;
    last = m.index! + m[0].length;
  }
  if (last < word.length) out += q(word.slice(last));
  return out;
}

/** `{}` `{.}` `{/}` `{//}` `{/.}` `{n...}` of one word, for the inputs of one job. */
function substitute(word: string, job: Arg[]): { text: string; used: boolean } {
  let used = false;
  const text = word.replace(PARALLEL_REPLACEMENTS, (m, n: string | undefined, mod: string | undefined) => {
    used = true;
    if (m === "{#}" || m === "{%}") return "1";
    const idx = n ? Number(n) - 1 : -1;
    const items = idx >= 0 ? [job[idx]].filter((x): x is Arg => x !== undefined) : job;
    return items
      .map((item) => {
        if (item.unknown || item.under || !mod) return itemText(item);
        const t = item.text;
        if (mod === ".") return q(t.replace(/\.[^./]*$/, ""));
        if (mod === "/") return q(posix.basename(t));
        if (mod === "//") return q(posix.dirname(t));
        return q(posix.basename(t).replace(/\.[^.]*$/, ""));
      })
      .join(" ");
  });
  return { text, used };
}

// biome-ignore format: a packed word list reads better than one word per line
const PARALLEL_VALUES = new Set(["j", "jobs", "P", "S", "sshlogin", "sshloginfile", "slf", "results", "res", "joblog", "env", "I", "extensionreplace", "basenamereplace", "dirnamereplace", "basenameextensionreplace", "seqreplace", "colsep", "C", "a", "arg-file", "d", "delimiter", "E", "tmpdir", "N", "n", "max-args", "L", "max-lines", "delay", "timeout", "retries", "halt", "memfree", "load", "nice", "tag-string", "tagstring", "block", "block-size", "recstart", "recend", "workdir", "wd", "return", "basefile", "bf", "profile", "J", "termseq", "rpl", "ssh", "filter", "limit", "compress-program", "decompress-program", "shebang-wrap", "sql", "sqlmaster", "sqlworker", "max-chars", "s", "transferfile", "tf", "header", "template", "tmux-length", "memsuspend"]);

const parallel: Rule = async (args, ctx) => {
  let i = 0;
  let quote = false;
  let pipe = false;
  let dry = false;
  let info = false;
  const sources: Output[][] = [];
  for (; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (a.unknown || !t.startsWith("-") || t === "-") break;
    if (t === "--") {
      i++;
      break;
    }
    const long = t.startsWith("--");
    const name = long ? t.slice(2).split("=")[0]! : t.slice(1, 2);
    const attached = long ? (t.includes("=") ? t.slice(t.indexOf("=") + 1) : undefined) : t.length > 2 ? t.slice(2) : undefined;
    if (name === "q" || name === "quote") quote = true;
    if (name === "pipe" || name === "pipepart") pipe = true;
    if (name === "dry-run" || name === "dryrun") dry = true;
    if (["version", "help", "citation", "number-of-cpus", "number-of-cores", "number-of-threads", "max-line-length-allowed", "bibtex"].includes(name))
      info = true;
    if (PARALLEL_VALUES.has(name)) {
      const v = attached ?? args[++i]?.text;
      if ((name === "a" || name === "arg-file") && v !== undefined) sources.push([await fileInput(ctx, v)]);
    }
  }
  let end = args.length;
  const sep = args.findIndex((a, k) => k >= i && !a.unknown && /^:{3,4}\+?$/.test(a.text));
  if (sep >= 0) end = sep;
  const command = args.slice(i, end);
  // Input sources after the command: ::: words, :::: files.
  for (let k = end; k < args.length; ) {
    const marker = args[k]!.text;
    let m = k + 1;
    while (m < args.length && !(!args[m]!.unknown && /^:{3,4}\+?$/.test(args[m]!.text))) m++;
    const words = args.slice(k + 1, m);
    if (marker.startsWith("::::")) for (const w of words) sources.push([w.unknown ? { kind: "unknown", why: `file ${w.src}` } : await fileInput(ctx, w.text)]);
    else {
      // The shell expands globs before parallel sees them.
      const items: Arg[] = [];
      for (const w of words) {
        if (w.glob && !w.unknown) for (const p of await ctx.paths(w, "parallel input")) items.push({ text: p, glob: false, src: w.src });
        else items.push(w);
      }
      sources.push([{ kind: "paths", args: items }]);
    }
    k = m;
  }
  if (dry || (info && command.length === 0 && sources.length === 0)) return;
  if (sources.length === 0 && !pipe) sources.push([await ctx.stdin()]);
  // Every source gives a list of items; jobs are their cross product (capped).
  const lists: Arg[][] = sources.map((src) => src.flatMap((o) => (o.kind === "paths" ? o.args : inputItems(o, { lines: true }, "inputs come from stdin"))));
  let jobs: Arg[][] = [[]];
  for (const list of lists) {
    const next: Arg[][] = [];
    for (const job of jobs) for (const item of list) if (next.length < 64) next.push([...job, item]);
    jobs = next;
  }
  const unknownVars = new Map([[INPUT_VAR, "an input given to parallel at run time"]]);
  const opts = { unknownVars };
  if (command.length === 0) {
    for (const job of jobs) {
      if (job.some((j) => j.unknown || j.under)) {
        ctx.unknown("parallel runs command lines that come from its input");
        return;
      }
      await ctx.script(job.map((j) => j.text).join(" "), "parallel runs an input as a command", opts);
    }
    return;
  }
  if (command.some((w) => w.unknown)) return ctx.unknown("parallel runs a command computed at run time");
  // parallel joins the command's words into one line for the shell; with -q each word is quoted.
  // Without -q both readings are analysed (versions and settings differ; `bash -c 'rm {}'`).
  if (pipe) {
    // --pipe: the payload reads blocks of parallel's stdin.
    await ctx.dispatch(command, "parallel --pipe runs", await ctx.stdin(), { stdinFed: true });
    return;
  }
  for (const job of jobs) {
    for (const quoted of quote ? [true] : [false, true]) {
      let used = false;
      const words = command.map((w) => {
        const r = substitute(w.text, job);
        used ||= r.used;
        if (!quoted) return r.text;
        return r.used ? quoteAround(w.text, job) : q(w.text);
      });
      const line = used ? words.join(" ") : [...words, ...job.map(itemText)].join(" ");
      // The joined reading of quoted words may not parse at all: then the shell runs nothing.
      await ctx.script(line, "parallel runs", { ...opts, skipUnparsable: !quoted && !quote });
    }
  }
};

async function fileInput(ctx: RuleContext, file: string): Promise<Output> {
  const abs = toAbsolute(file, ctx.state.cwd);
  if (abs) ctx.effect({ op: "read", path: abs, why: "reads its inputs from" });
  const text = abs ? await ctx.readScript(abs) : null;
  return text === null ? { kind: "unknown", why: `content of ${file}` } : { kind: "text", text };
}

/** fd/fdfind -x/-X CMD: the payload runs on every match under the search paths. */
const fd: Rule = async (args, ctx) => {
  const x = args.findIndex((a) => ["-x", "--exec", "-X", "--exec-batch"].includes(a.text));
  if (x < 0) return;
  const before = splitArgs(args.slice(0, x), {
    withValue: [
      "e",
      "extension",
      "t",
      "type",
      "d",
      "max-depth",
      "min-depth",
      "E",
      "exclude",
      "S",
      "size",
      "changed-within",
      "changed-before",
      "o",
      "owner",
      "c",
      "color",
      "j",
      "threads",
      "base-directory",
      "path-separator",
      "search-path",
      "max-results",
      "ignore-file",
    ],
  }).operands;
  const roots = before.slice(1).length ? before.slice(1) : [lit(".")];
  const end = args.findIndex((a, k) => k > x && a.text === ";");
  const payload = args.slice(x + 1, end < 0 ? undefined : end);
  for (const r of roots) {
    const match: Arg = { ...r, under: true };
    const argv = payload.some((p) => /\{[/.]*\}/.test(p.text)) ? payload.map((p) => (/\{[/.]*\}/.test(p.text) ? match : p)) : [...payload, match];
    if (argv.length) await ctx.dispatch(argv, `${ctx.name} -x runs`, undefined, { stdinFed: false });
  }
};

const hyperfine: Rule = async (args, ctx) => {
  const { operands, values } = splitArgs(args, {
    withValue: [
      "w",
      "warmup",
      "m",
      "min-runs",
      "M",
      "max-runs",
      "r",
      "runs",
      "p",
      "prepare",
      "c",
      "cleanup",
      "s",
      "setup",
      "P",
      "parameter-scan",
      "L",
      "parameter-list",
      "export-json",
      "export-markdown",
      "export-csv",
      "shell",
      "S",
      "n",
      "command-name",
      "u",
      "time-unit",
      "style",
    ],
  });
  const commands = [...operands, ...["p", "prepare", "c", "cleanup", "s", "setup"].flatMap((k) => (values.get(k) ?? []).map(lit))];
  for (const c of commands) {
    if (c.unknown) ctx.unknown("hyperfine runs a command computed at run time");
    else await ctx.script(c.text, "hyperfine runs");
  }
};

/** su [-] [user] -c CMD, runuser, sg: the command string is shell. */
const suLike: Rule = async (args, ctx) => {
  const c = args.findIndex((a) => a.text === "-c" || a.text === "--command" || a.text === "--session-command");
  if (c >= 0) {
    const code = args[c + 1];
    if (!code || code.unknown) return ctx.unknown(`${ctx.name} -c runs a command computed at run time`);
    return ctx.script(code.text, `${ctx.name} -c`);
  }
  const dd = args.findIndex((a) => a.text === "--");
  if (dd >= 0 && args.length > dd + 1) return ctx.dispatch(args.slice(dd + 1), `${ctx.name} runs`);
  if (ctx.name !== "sg" && !args.some((a) => a.text === "-l" || a.text === "-" || a.text === "--login")) return;
  ctx.unknown(`${ctx.name} opens a shell as another user`);
};

/** script [-q] [-c CMD] [FILE]: the command runs, the typescript FILE is written. */
const scriptCmd: Rule = async (args, ctx) => {
  const { values, operands } = splitArgs(args, {
    withValue: ["c", "command", "t", "timing", "T", "log-timing", "I", "log-in", "O", "log-out", "B", "log-io", "E", "echo", "m", "logging-format"],
  });
  for (const c of [...(values.get("c") ?? []), ...(values.get("command") ?? [])]) await ctx.script(c, "script -c");
  await ctx.targets(operands.length ? operands : [lit("typescript")], "write", "script writes its log");
};

const npx: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["p", "package", "c", "call"], stopAtOperand: true });
  if (rest.length) await ctx.dispatch(rest, "npx runs");
};

export const WRAPPER_RULES: RuleTable = [
  ["xargs", xargs],
  ["parallel", parallel],
  ["fd", fd],
  ["fdfind", fd],
  ["hyperfine", hyperfine],
  ["su", suLike],
  ["runuser", suLike],
  ["sg", suLike],
  ["script", scriptCmd],
  ["pkexec", wrapper(["u", "user"])],
  ["strace", wrapper(["o", "e", "p", "s", "a", "E", "u", "O", "S", "P", "I", "b", "X"])],
  ["ltrace", wrapper(["o", "e", "p", "s", "a", "E", "u", "n"])],
  ["valgrind", wrapper([])],
  ["taskset", wrapper(["c", "cpu-list"], { skipFirstOperand: true })],
  ["chrt", wrapper([], { skipFirstOperand: true })],
  ["firejail", wrapper([])],
  ["xvfb-run", wrapper(["n", "server-num", "s", "server-args", "f", "auth-file", "e", "error-file", "l", "p", "w", "wait"])],
  ["caffeinate", wrapper(["t", "w"])],
  ["unshare", wrapper(["S", "setuid", "G", "setgid", "R", "root", "w", "wd", "mount-proc", "map-user", "map-group"])],
  [
    "systemd-run",
    wrapper([
      "p",
      "property",
      "u",
      "unit",
      "M",
      "machine",
      "H",
      "host",
      "E",
      "setenv",
      "on-calendar",
      "on-active",
      "on-boot",
      "slice",
      "description",
      "uid",
      "gid",
      "nice",
      "working-directory",
      "service-type",
    ]),
  ],
  ["dbus-run-session", wrapper([])],
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
  ["npx", npx],
];

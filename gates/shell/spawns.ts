/**
 * Processes that interpreter code starts, in every argument form its language offers: a shell
 * string (`os.system("rm -rf x")`, `execSync("...")`), an argument list (`subprocess.run(["rm",
 * "-rf", "x"])`, `spawnSync("rm", ["-rf", "x"])`, `os.execvp("rm", ["rm", "-rf", "x"])`, perl's
 * and ruby's `system("rm", "-rf", "x")`, `Bun.spawn([...])`, `new Deno.Command("rm", { args })`,
 * php's `proc_open([...])` and `pcntl_exec`). Each call whose program and arguments are literals
 * becomes the shell command it amounts to (its words quoted), so the caller judges it like a
 * command line; a call with an argument computed at run time is reported as opaque.
 */
/** The languages whose code is read for what it deletes, writes and runs. */
export type Language = "python" | "node" | "perl" | "ruby" | "php" | "lua" | "r" | "julia" | "tcl";

/** How a spawn API takes its command. */
type Form =
  /** The first argument is a shell string. */
  | "shell"
  /** The first argument is a shell string or an argv list (python subprocess, php proc_open, ruby IO.popen, Bun.spawn). */
  | "string-or-list"
  /** One string: a shell string; several: argv (perl/ruby system, exec, spawn). */
  | "varargs"
  /** A program, then its argument list without argv[0] (node spawn/execFile, php pcntl_exec, Deno.Command). */
  | "program-list"
  /** A program, then an argv list whose first entry is argv[0] (python os.execv*, os.posix_spawn*). */
  | "program-argv"
  /** A program, then argv[0], then each argument (python os.execl*). */
  | "program-argv0-args";

interface Api {
  readonly re: RegExp;
  readonly form: Form;
  /** Arguments before the program (os.spawnv's mode). */
  readonly skip?: number;
  /** The last argument is an environment, not a word (os.execle, os.spawnle). */
  readonly envLast?: boolean;
  /** Only where the code imports the name bare (`from subprocess import run`). */
  readonly requires?: RegExp;
}

// Every pattern ends where the argument list begins: at `(`, or (perl and ruby) at white space.
const APIS: Record<Language, readonly Api[]> = {
  python: [
    { re: /\bos\.(?:system|popen)\s*\(/g, form: "shell" },
    { re: /\bsubprocess\.(?:run|call|check_call|check_output|getoutput|getstatusoutput|Popen)\s*\(/g, form: "string-or-list" },
    {
      re: /\b(?:run|call|check_call|check_output|getoutput|getstatusoutput|Popen)\s*\(/g,
      form: "string-or-list",
      requires: /\bfrom\s+subprocess\s+import\b/,
    },
    { re: /\b(?:system|popen)\s*\(/g, form: "shell", requires: /\bfrom\s+os\s+import\b[^\n;]*\b(?:system|popen)\b/ },
    { re: /\bos\.exec(?:v|vp|ve|vpe)\s*\(/g, form: "program-argv" },
    { re: /\bos\.posix_spawnp?\s*\(/g, form: "program-argv" },
    { re: /\bos\.spawnv(?:p|e|pe)?\s*\(/g, form: "program-argv", skip: 1 },
    { re: /\bos\.exec(?:l|lp)\s*\(/g, form: "program-argv0-args" },
    { re: /\bos\.exec(?:le|lpe)\s*\(/g, form: "program-argv0-args", envLast: true },
    { re: /\bos\.spawnl(?:p)?\s*\(/g, form: "program-argv0-args", skip: 1 },
    { re: /\bos\.spawnl(?:e|pe)\s*\(/g, form: "program-argv0-args", skip: 1, envLast: true },
    { re: /\bpty\.spawn\s*\(/g, form: "string-or-list" },
  ],
  node: [
    { re: /\bBun\.(?:spawn|spawnSync)\s*\(/g, form: "string-or-list" },
    { re: /\bDeno\.Command\s*\(/g, form: "program-list" },
    { re: /\bDeno\.run\s*\(/g, form: "string-or-list" },
    { re: /\b(?:execSync|exec)\s*\(/g, form: "shell" },
    { re: /\b(?:spawn|spawnSync|execFile|execFileSync)\s*\(/g, form: "program-list" },
    { re: /\bfork\s*\(/g, form: "program-list" },
    { re: /\b\$`/g, form: "shell" },
  ],
  perl: [{ re: /\b(?:system|exec)\b\s*(?=[("'q\w$@])/g, form: "varargs" }],
  ruby: [
    { re: /\b(?:Kernel\.|Process\.)?(?:system|exec|spawn)\b\s*(?=[("'%\w{])/g, form: "varargs" },
    { re: /\bOpen3\.(?:popen3|popen2|popen2e|capture2|capture2e|capture3|pipeline\w*)\s*\(?/g, form: "varargs" },
    { re: /\bIO\.popen\s*\(?/g, form: "string-or-list" },
  ],
  php: [
    { re: /\b(?:system|exec|shell_exec|passthru|popen)\s*\(/g, form: "shell" },
    { re: /\bproc_open\s*\(/g, form: "string-or-list" },
    { re: /\bpcntl_exec\s*\(/g, form: "program-list" },
  ],
  lua: [{ re: /\b(?:os\.execute|io\.popen)\s*\(?/g, form: "shell" }],
  r: [
    { re: /\b(?:system|shell)\s*\(/g, form: "shell" },
    { re: /\bsystem2\s*\(/g, form: "program-list" },
  ],
  julia: [{ re: /\bCmd\s*\(/g, form: "string-or-list" }],
  tcl: [],
};

/** One parsed argument of a call. */
type Value = { kind: "str"; text: string } | { kind: "list"; items: Value[] } | { kind: "object"; src: string } | { kind: "other"; src: string };

export interface SpawnScan {
  /** The shell command each literal call amounts to. */
  readonly commands: string[];
  /** Calls whose program or arguments are computed at run time. */
  readonly opaque: string[];
}

/** Quote a word for a shell command line (single quotes unless it is plainly safe). */
export function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`;
}

export function spawnCalls(language: Language, code: string): SpawnScan {
  const commands: string[] = [];
  const opaque: string[] = [];
  const seen = new Set<number>();
  for (const api of APIS[language]) {
    if (api.requires && !api.requires.test(code)) continue;
    for (const m of code.matchAll(api.re)) {
      const at = m.index ?? 0;
      // One call, one reading: `Bun.spawnSync(` is not also a bare `spawnSync(`.
      if (seen.has(at + m[0].length)) continue;
      seen.add(at + m[0].length);
      // A method of some other object (`re.exec(`, `obj.system(`) is not the API, unless the pattern named its owner.
      const before = code.slice(0, at);
      if (language !== "node" && /(?:[.\w]|->)$/.test(before) && !m[0].includes(".")) continue;
      const start = at + m[0].length;
      const snippet = code.slice(at, at + 60).replace(/\s+/g, " ");
      const paren = m[0].endsWith("(");
      const open = paren ? start : code[start] === "(" ? start + 1 : start;
      const parsed = api.re.source.startsWith("\\b\\$`") ? backtickTemplate(code, start) : parseArgs(code, open, paren || code[start] === "(", language);
      if (parsed === null) {
        opaque.push(`${language} code starts a process the gate cannot read (${snippet})`);
        continue;
      }
      const result = toCommand(api, parsed);
      if (result === null) opaque.push(`${language} code starts a process with a program or arguments computed at run time (${snippet})`);
      else commands.push(result);
    }
  }
  return { commands, opaque };
}

/** A JS `$\`...\`` template (zx, Bun shell): a shell string when it interpolates nothing. */
function backtickTemplate(code: string, start: number): Value[] | null {
  const end = code.indexOf("`", start);
  if (end < 0) return null;
  const body = code.slice(start, end);
  return [body.includes("${") ? { kind: "other", src: body } : { kind: "str", text: body }];
}

function toCommand(api: Api, argsIn: Value[]): string | null {
  let args = argsIn.slice(api.skip ?? 0);
  // Keyword arguments and option objects (`shell=True`, `{ shell: true }`, `cwd: x`) are not words.
  const shellOn = argsIn.some((a) => (a.kind === "other" || a.kind === "object") && /\bshell\s*[=:]\s*(True|true|1)\b/.test(a.src));
  const kw = (a: Value) => a.kind === "other" && /^[A-Za-z_]\w*\s*=[^=]/.test(a.src);
  args = args.filter((a) => !kw(a));
  if (api.envLast) args = args.slice(0, -1);
  const strings = (vs: readonly Value[]): string[] | null => {
    const out: string[] = [];
    for (const v of vs) {
      if (v.kind === "str") out.push(v.text);
      else if (v.kind === "list") {
        const inner = strings(v.items);
        if (inner === null) return null;
        out.push(...inner);
      } else return null;
    }
    return out;
  };
  const argv = (words: string[] | null): string | null =>
    words === null || words.length === 0 ? null : shellOn ? words.join(" ") : words.map(shellWord).join(" ");
  const first = args[0];
  if (!first) return null;
  switch (api.form) {
    case "shell":
      return first.kind === "str" ? first.text : null;
    case "string-or-list": {
      if (first.kind === "str") return first.text;
      if (first.kind === "list") return argv(strings(first.items));
      if (first.kind === "object") {
        const list = objectList(first.src, ["cmd", "args", "argv"]);
        return list === null ? null : argv(list);
      }
      return null;
    }
    case "varargs": {
      // ruby: an environment hash may come first, options last.
      const words = args.filter((a, i) => !(a.kind === "object" && (i === 0 || i === args.length - 1)));
      if (words.length === 1 && words[0]!.kind === "str") return words[0]!.text;
      return argv(strings(words));
    }
    case "program-list": {
      if (first.kind !== "str") return null;
      const second = args[1];
      if (!second || second.kind === "object") {
        const fromObject = second?.kind === "object" ? objectList(second.src, ["args"]) : [];
        if (fromObject === null) return null;
        return shellOn && fromObject.length === 0 ? first.text : argv([first.text, ...fromObject]);
      }
      if (second.kind !== "list") return null;
      const rest = strings(second.items);
      return rest === null ? null : argv([first.text, ...rest]);
    }
    case "program-argv": {
      const second = args[1];
      if (first.kind !== "str" || !second || second.kind !== "list") return null;
      const rest = strings(second.items);
      return rest === null ? null : argv([first.text, ...rest.slice(1)]);
    }
    case "program-argv0-args": {
      const rest = strings(args.slice(1));
      return first.kind !== "str" || rest === null ? null : argv([first.text, ...rest.slice(1)]);
    }
  }
}

/** The literal list under one of `keys` in an object's source (`{ args: ["-rf", "x"] }`); [] when there is none, null when not literal. */
function objectList(src: string, keys: readonly string[]): string[] | null {
  const m = new RegExp(String.raw`\b(?:${keys.join("|")})\s*:\s*\[`).exec(src);
  if (!m) return /\b(?:cmd|args|argv)\s*:/.test(src) ? null : [];
  const parsed = parseArgs(src, m.index + m[0].length - 1, false, "node");
  const v = parsed?.[0];
  if (v?.kind !== "list") return null;
  const out: string[] = [];
  for (const i of v.items) {
    if (i.kind !== "str") return null;
    out.push(i.text);
  }
  return out;
}

/**
 * The arguments of a call starting at `from` (just after `(` when `paren`, else the first
 * argument of a paren-less perl/ruby call, ending at `;`, a newline or a closing bracket).
 */
function parseArgs(code: string, from: number, paren: boolean, language: Language): Value[] | null {
  const out: Value[] = [];
  let i = from;
  const ws = () => {
    while (i < code.length && /[ \t\r]/.test(code[i]!) && (paren || code[i] !== "\n")) i++;
    if (paren) while (i < code.length && /\s/.test(code[i]!)) i++;
  };
  const value = (): Value | null => {
    ws();
    const c = code[i];
    if (c === undefined) return null;
    // String prefixes: python r"", b"", f""; ruby %w[]; perl qw().
    const prefix = /^(?:[rRbBuU]{1,2}|[fF][rR]?|[rR][fF])(?=['"])/.exec(code.slice(i, i + 3));
    if (prefix && language === "python") {
      const interp = /[fF]/.test(prefix[0]);
      i += prefix[0].length;
      const s = quoted();
      if (s === null) return null;
      return interp && s.includes("{") ? { kind: "other", src: s } : { kind: "str", text: s };
    }
    const words = /^(?:qw\s*([([{/<|])|%[wW]([([{<|]))/.exec(code.slice(i, i + 5));
    if (words && (language === "perl" || language === "ruby")) {
      const openCh = (words[1] ?? words[2])!;
      const closeCh = { "(": ")", "[": "]", "{": "}", "<": ">" }[openCh] ?? openCh;
      const startBody = i + words[0].length;
      const end = code.indexOf(closeCh, startBody);
      if (end < 0) return null;
      i = end + 1;
      return {
        kind: "list",
        items: code
          .slice(startBody, end)
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map((text) => ({ kind: "str", text })),
      };
    }
    if (c === "'" || c === '"' || (c === "`" && language === "node")) {
      const s = quoted();
      if (s === null) return null;
      const interpolates =
        c === "`"
          ? s.includes("${")
          : c === '"' && (language === "perl" || language === "php" ? /[$@]/.test(s) : language === "ruby" ? s.includes("#{") : false);
      return interpolates ? { kind: "other", src: s } : { kind: "str", text: s };
    }
    const rVector = language === "r" && /^c\s*\(/.test(code.slice(i));
    if (c === "[" || (c === "(" && (language === "python" || language === "perl")) || rVector) {
      const close = c === "[" ? "]" : ")";
      i = rVector ? code.indexOf("(", i) + 1 : i + 1;
      const items: Value[] = [];
      for (;;) {
        while (i < code.length && /\s/.test(code[i]!)) i++;
        if (code[i] === close) {
          i++;
          return { kind: "list", items };
        }
        const v = value();
        if (v === null) return null;
        items.push(v);
        while (i < code.length && /\s/.test(code[i]!)) i++;
        if (code[i] === ",") i++;
        else if (code[i] !== close) return null;
      }
    }
    if (language === "php" && /^array\s*\(/.test(code.slice(i))) {
      i = code.indexOf("(", i);
      code = `${code.slice(0, i)}[${code.slice(i + 1)}`;
      const end = matching(code, i, "[", ")");
      if (end < 0) return null;
      code = `${code.slice(0, end)}]${code.slice(end + 1)}`;
      return value();
    }
    // Anything else (a name, a call, an object, `shell=True`): its source up to the next top-level comma.
    const begin = i;
    let depth = 0;
    for (; i < code.length; i++) {
      const ch = code[i]!;
      if (ch === "'" || ch === '"' || ch === "`") {
        if (quoted() === null) return null;
        i--;
        continue;
      }
      if ("([{".includes(ch)) depth++;
      else if (")]}".includes(ch)) {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0 && (ch === "," || ch === ";" || (!paren && ch === "\n"))) break;
    }
    const src = code.slice(begin, i).trim();
    if (src === "") return null;
    return src.startsWith("{") ? { kind: "object", src } : { kind: "other", src };
  };
  /** A quoted string at i (its quote char); i moves past it. */
  const quoted = (): string | null => {
    const q = code[i]!;
    let s = "";
    for (i++; i < code.length; i++) {
      const ch = code[i]!;
      if (ch === "\\" && q !== "'") {
        const n = code[i + 1];
        if (n === undefined) return null;
        s += n === "n" ? "\n" : n === "t" ? "\t" : n;
        i++;
        continue;
      }
      if (ch === "\\" && q === "'" && (code[i + 1] === "'" || code[i + 1] === "\\")) {
        s += code[i + 1];
        i++;
        continue;
      }
      if (ch === q) {
        i++;
        return s;
      }
      s += ch;
    }
    return null;
  };
  for (;;) {
    ws();
    if (i >= code.length || (paren && code[i] === ")") || (!paren && /[;\n)}\]]/.test(code[i]!))) return out;
    if (paren && out.length > 0 && code[i] === ",") i++;
    const v = value();
    if (v === null) return null;
    out.push(v);
    ws();
    if (code[i] === ",") i++;
    else if (paren ? code[i] !== ")" : i < code.length && !/[;\n)}\]]/.test(code[i]!) && !/^(?:or|and|if|unless)\b/.test(code.slice(i))) return null;
    else if (!paren && /^(?:or|and|if|unless)\b/.test(code.slice(i))) return out;
  }
}

/** Index of the bracket closing the one at `open` (counting `o`/`c`), or -1. */
function matching(code: string, open: number, o: string, c: string): number {
  let depth = 0;
  for (let k = open; k < code.length; k++) {
    if (code[k] === o) depth++;
    else if (code[k] === c && --depth === 0) return k;
  }
  return -1;
}

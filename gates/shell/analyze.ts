/**
 * What a bash command line would read, write or destroy: walks the parsed steps in order,
 * tracking variables and the cwd like the shell would, unwraps wrappers and re-parses nested
 * shell strings, and turns every simple command into effects on (sandbox) paths.
 * Whatever it cannot understand becomes an `unknowns` entry (the gate confirms those).
 */
import type { EnvView } from "../types.ts";
import { parseWith, loadBashParser, type ParsedScript, type Redirect, type SimpleCommand, type Step } from "./parse.ts";
import { cloneState, expandSingle, expandWord, globPaths, initialState, toAbsolute, type Arg, type ShellState } from "./expand.ts";
import { COMMAND_MODELS, COMMAND_OPTIONS, COMMAND_RULES } from "./rules/index.ts";
import { unmodelled, unmodelledOption } from "./rules/models.ts";
import { runScriptFile } from "./rules/shells.ts";
import { commandName, unversioned, type Effect, type Output, type RuleContext } from "./rules/types.ts";
import { unknownProgram } from "./rules/unknown.ts";
import type { Parser } from "web-tree-sitter";
import { posix } from "node:path";

export interface ParsedCommand {
  /** Expanded argv (unknown parts shown as their source text). */
  readonly argv: string[];
  readonly src: string;
  /** 0 for the top-level line; +1 per unwrapped `bash -c` / script / eval level. */
  readonly depth: number;
}

export interface ShellAnalysis {
  readonly commands: ParsedCommand[];
  readonly effects: Effect[];
  readonly unknowns: string[];
}

export interface AnalyzeOptions {
  cwd?: string;
}

const MAX_DEPTH = 6;
const MAX_COMMANDS = 400;

export async function analyzeBash(command: string, env: EnvView, options: AnalyzeOptions = {}): Promise<ShellAnalysis> {
  const parser = await loadBashParser();
  const run = new AnalysisRun(parser, env);
  const state = initialState(env, options.cwd);
  await run.script(command, { vars: state.vars, cwd: state.cwd, home: state.home, substitute: pureSubstitution(parser) }, 0, "command line");
  return run.result();
}

/**
 * Command substitutions whose output follows from the line alone, computed without running
 * anything: `pwd`, `dirname P`, `basename P [SUFFIX]`, `echo WORDS`, and `cd D && pwd` (or
 * `cd D; pwd`), every word known. Anything else stays a run-time value. The substitution's
 * commands are still analysed where they stand (parse.ts walks them).
 */
export function pureSubstitution(parser: Parser): (src: string, state: ShellState) => string | null {
  return (src, state) => {
    const inner = src.startsWith("$(") && src.endsWith(")") ? src.slice(2, -1) : src.startsWith("`") && src.endsWith("`") ? src.slice(1, -1) : null;
    // Only these programs can be computed: skip the parse for anything else (`$(date)`).
    if (inner === null || inner.length > 300 || !/^\s*(pwd|dirname|basename|echo|cd)\b/.test(inner)) return null;
    const parsed = parseWith(parser, inner);
    if (parsed.hasError || parsed.steps.length === 0 || parsed.steps.length > 2) return null;
    let cwd = state.cwd;
    for (const [i, step] of parsed.steps.entries()) {
      if (step.kind !== "command") return null;
      const c = step.command;
      if (c.redirects.length || c.assignments.length || c.pipedFrom !== null || c.inSubstitution) return null;
      const argv: Arg[] = [];
      for (const w of c.words) argv.push(...expandWord(w, { ...state, cwd }));
      if (argv.length === 0 || argv.some((a) => a.unknown !== undefined || a.glob)) return null;
      const name = commandName(argv[0]!.text);
      const args = argv.slice(1).map((a) => a.text);
      if (i < parsed.steps.length - 1) {
        if (name !== "cd" || args.length !== 1 || args[0] === "-") return null;
        cwd = toAbsolute(args[0]!, cwd);
        if (cwd === null) return null;
        continue;
      }
      if (name === "pwd" && args.every((a) => a === "-L" || a === "-P")) return cwd === null ? null : cwd.replace(/(.)\/$/, "$1");
      if (name === "dirname" && args.length === 1) return posix.dirname(args[0]!);
      if (name === "basename" && (args.length === 1 || args.length === 2) && !args[0]!.startsWith("-")) {
        const b = posix.basename(args[0]!);
        return args[1] !== undefined && b.endsWith(args[1]) && b !== args[1] ? b.slice(0, -args[1].length) : b;
      }
      if (name === "echo" && !args.some((a) => a.startsWith("-"))) return args.join(" ");
      return null;
    }
    return null;
  };
}

class AnalysisRun {
  readonly commands: ParsedCommand[] = [];
  readonly effects: Effect[] = [];
  readonly unknowns: string[] = [];
  /** Files written on this command line: content when known. */
  readonly written = new Map<string, string | null>();
  /** Shell functions defined on this line: calling one runs its body, analysed where it is defined. */
  readonly functions = new Set<string>();
  private count = 0;
  /** See RuleContext.worldChangedEarlier; set as each simple command starts. */
  private changedBefore = false;

  constructor(
    private readonly parser: Parser,
    readonly env: EnvView,
  ) {}

  result(): ShellAnalysis {
    return { commands: this.commands, effects: dedupeEffects(this.effects), unknowns: [...new Set(this.unknowns)] };
  }

  unknown(why: string): void {
    this.unknowns.push(why);
  }

  async script(source: string, state: ShellState, depth: number, why: string, skipUnparsable = false): Promise<void> {
    if (depth > MAX_DEPTH) {
      this.unknown(`${why}: nested too deeply to analyse`);
      return;
    }
    const parsed = parseWith(this.parser, source);
    // bash parses a one-line `-c` string before running any of it: a syntax error runs nothing.
    if (parsed.hasError && skipUnparsable && !source.includes("\n")) return;
    if (parsed.hasError) this.unknown(`${why}: cannot parse (${parsed.errors.join("; ")})`);
    await this.steps(parsed, state, depth);
  }

  private async steps(parsed: ParsedScript, initial: ShellState, depth: number): Promise<void> {
    const scopes: ShellState[] = [];
    let state = initial;
    const outputs = new Map<number, Output>();
    for (const step of parsed.steps) {
      switch (step.kind) {
        case "enter-scope":
          scopes.push(state);
          state = cloneState(state);
          break;
        case "leave-scope":
          state = scopes.pop() ?? state;
          break;
        case "define-function":
          this.functions.add(step.name);
          break;
        default:
          await this.step(step, state, depth, parsed, outputs);
      }
    }
  }

  private async step(
    step: Exclude<Step, { kind: "enter-scope" | "leave-scope" | "define-function" }>,
    state: ShellState,
    depth: number,
    parsed: ParsedScript,
    outputs: Map<number, Output>,
  ): Promise<void> {
    switch (step.kind) {
      case "assign":
        for (const a of step.assignments) {
          const prev = state.vars.get(a.name);
          const exported = step.exported || (prev?.exported ?? false);
          if (!a.value) {
            if (!prev) state.vars.set(a.name, { kind: "known", values: [""], exported });
            else state.vars.set(a.name, { ...prev, exported });
            continue;
          }
          const v = expandSingle(a.value, state, "assignment");
          const base = a.append && prev?.kind === "known" ? (prev.values[0] ?? "") : "";
          state.vars.set(
            a.name,
            v.unknown ? { kind: "unknown", why: `$${a.name} = ${a.value.src}: ${v.unknown}`, exported } : { kind: "known", values: [base + v.text], exported },
          );
        }
        return;
      case "unset":
        for (const n of step.names) state.vars.delete(n);
        return;
      case "loop-var": {
        if (!step.values) {
          state.vars.set(step.name, { kind: "unknown", why: `$${step.name} iterates over the script arguments`, exported: false });
          return;
        }
        const values: string[] = [];
        for (const w of step.values) {
          for (const arg of expandWord(w, state)) {
            if (arg.unknown) {
              state.vars.set(step.name, { kind: "unknown", why: `$${step.name} iterates over ${w.src}`, exported: false });
              return;
            }
            if (arg.glob) {
              const found = await globPaths(arg, state.cwd, this.env);
              if (found === null) {
                state.vars.set(step.name, { kind: "unknown", why: `$${step.name} iterates over ${w.src} in an unknown directory`, exported: false });
                return;
              }
              values.push(...found);
            } else values.push(arg.text);
          }
        }
        state.vars.set(step.name, { kind: "known", values: values.length ? values : [""], exported: false });
        return;
      }
      case "command":
        await this.command(step.command, state, depth, parsed, outputs);
        return;
    }
  }

  private async command(cmd: SimpleCommand, state: ShellState, depth: number, _parsed: ParsedScript, outputs: Map<number, Output>): Promise<void> {
    if (++this.count > MAX_COMMANDS) {
      if (this.count === MAX_COMMANDS + 1) this.unknown(`more than ${MAX_COMMANDS} commands: not analysed further`);
      return;
    }
    const argv: Arg[] = [];
    for (const w of cmd.words) argv.push(...expandWord(w, state));
    this.commands.push({ argv: argv.map((a) => (a.unknown ? a.src : a.text)), src: cmd.src, depth });

    this.changedBefore = this.effects.some((e) => e.op !== "read") || this.unknowns.length > 0;
    const writes: { path: string; append: boolean }[] = [];
    const firstEffect = this.effects.length;
    const { stdin: stdinFromRedirect, fed } = await this.redirects(cmd.redirects, state, argv, writes);

    if (cmd.words.length === 0) {
      // `X=1 > f`: assignments without a command persist in the shell.
      for (const a of cmd.assignments) {
        const v = a.value ? expandSingle(a.value, state, "assignment") : { text: "", glob: false, src: "" };
        state.vars.set(a.name, v.unknown ? { kind: "unknown", why: v.unknown, exported: false } : { kind: "known", values: [v.text], exported: false });
      }
      return;
    }
    const first = cmd.words[0]!;
    if (first.hasExpansion) this.unknown(`command name comes from an expansion: ${first.src}`);

    const producer =
      cmd.pipedFrom === null
        ? null
        : cmd.pipedFrom === "unknown"
          ? ({ kind: "unknown", why: "output of a compound command" } as Output)
          : (outputs.get(cmd.pipedFrom) ?? { kind: "unknown", why: "output of an earlier command" });
    const stdin: Output = stdinFromRedirect ?? producer ?? { kind: "unknown", why: "stdin of the command line" };

    // Prefix assignments (`VAR=x cmd`) are visible to the command and its children, exported.
    let cmdState = state;
    if (cmd.assignments.length) {
      cmdState = cloneState(state);
      for (const a of cmd.assignments) {
        const v = a.value ? expandSingle(a.value, state, "assignment") : { text: "", glob: false, src: "" };
        cmdState.vars.set(a.name, v.unknown ? { kind: "unknown", why: v.unknown, exported: true } : { kind: "known", values: [v.text], exported: true });
      }
    }
    let output: Output = { kind: "unknown", why: `output of ${cmd.src.slice(0, 60)}` };
    await this.dispatch(argv, cmd, cmdState, state, depth, stdin, (o) => (output = o), fed || cmd.pipedFrom !== null);
    outputs.set(cmd.id, output);
    // `sort f > f`, `jq . f > f`: the shell empties f before the command reads it.
    for (const w of writes) {
      if (w.append) continue;
      const reads = this.effects.slice(firstEffect).some((e) => e.op === "read" && !e.contents && e.path === w.path);
      if (!reads) continue;
      const why = "a > redirection empties the file the command reads";
      const at = this.effects.findIndex((e, k) => k >= firstEffect && e.op === "write" && e.path === w.path);
      if (at >= 0) this.effects[at] = { ...this.effects[at]!, destructive: true, why };
      else this.effects.push({ op: "write", path: w.path, destructive: true, why });
    }
    // `cat > x.sh <<EOF`, `echo ... > x.sh`: remember the content for a later `bash x.sh`.
    const out = output as Output;
    for (const w of writes) this.written.set(w.path, !w.append && out.kind === "text" ? out.text : null);
  }

  /**
   * Handles redirections; returns stdin content given by a heredoc / herestring / `< file`, and
   * whether anything but /dev/null is fed to stdin.
   */
  private async redirects(
    redirects: readonly Redirect[],
    state: ShellState,
    argv: Arg[],
    writes: { path: string; append: boolean }[],
  ): Promise<{ stdin: Output | null; fed: boolean }> {
    let stdin: Output | null = null;
    let fed = false;
    for (const r of redirects) {
      const toStdin = r.fd === null || r.fd === 0;
      if (toStdin && (r.heredoc || r.op === "<<<" || r.op === "<" || r.op === "<&" || r.op === "<>")) fed = true;
      if (r.heredoc) {
        if (r.heredoc.quoted) stdin = { kind: "text", text: r.heredoc.body };
        else {
          const a = expandSingle({ src: r.heredoc.body, parts: r.heredoc.parts, literal: null, hasExpansion: true }, state);
          stdin = a.unknown ? { kind: "unknown", why: `heredoc with ${a.unknown}` } : { kind: "text", text: a.text };
        }
        continue;
      }
      if (!r.target) continue;
      const target = expandSingle(r.target, state);
      if (r.op === "<<<") {
        stdin = target.unknown ? { kind: "unknown", why: target.unknown } : { kind: "text", text: target.text + "\n" };
        continue;
      }
      if ((r.op === ">&" || r.op === "<&") && /^(\d+|-)$/.test(target.text)) {
        if (r.op === "<&" && target.text === "-") fed = false;
        continue; // fd duplication
      }
      const isRead = r.op === "<";
      const label = `redirection ${r.op} ${r.target.src}`;
      if (target.unknown) {
        this.unknown(`${label}: target ${target.unknown}`);
        if (isRead) stdin = { kind: "unknown", why: target.unknown };
        continue;
      }
      if (target.text === "") {
        this.unknown(`${label}: empty target`);
        continue;
      }
      const abs = toAbsolute(target.text, state.cwd);
      if (abs === null) {
        this.unknown(`${label}: relative to an unknown directory`);
        continue;
      }
      if (isHarmlessDevice(abs)) {
        if (isRead && toStdin) fed = false;
        continue;
      }
      if (isRead) {
        this.effects.push({ op: "read", path: abs, why: label });
        const text = await this.readScript(abs);
        stdin = text === null ? { kind: "unknown", why: `content of ${abs}` } : { kind: "text", text };
        continue;
      }
      if (r.op === "<>") {
        this.effects.push({ op: "write", path: abs, why: label });
        continue;
      }
      const append = r.op === ">>" || r.op === "&>>";
      const existing = append ? null : await this.env.lstat(abs);
      // `> f` truncates: destroying content when the command writes nothing (`: > f`, `> f`), and
      // replacing it when the file exists and is not empty (an output file, like `cp` over it).
      const emptying = !append && (argv.length === 0 || isSilent(argv)) && existing !== null && existing.size > 0;
      const replaces = !emptying && existing !== null && existing.type !== "dir" && existing.size > 0;
      this.effects.push({
        op: "write",
        path: abs,
        why: emptying ? `${label} empties the file` : replaces ? `${label} replaces the existing file` : label,
        ...(emptying || replaces ? { destructive: true } : {}),
      });
      this.written.set(abs, null);
      writes.push({ path: abs, append });
    }
    return { stdin, fed };
  }

  async readScript(path: string): Promise<string | null> {
    if (this.written.has(path)) return this.written.get(path) ?? null;
    return this.env.readFile(path);
  }

  async dispatch(
    argv: Arg[],
    cmd: SimpleCommand,
    state: ShellState,
    outer: ShellState,
    depth: number,
    stdin: Output,
    setOutput: (o: Output) => void,
    stdinFed: boolean,
  ): Promise<void> {
    if (argv.length === 0) return;
    const head = argv[0]!;
    if (head.unknown) {
      this.unknown(`command name is not known before run time: ${head.src}`);
      return;
    }
    const name = commandName(head.text);
    const ctx = this.context(cmd, state, outer, depth, stdin, setOutput, head.text, stdinFed);
    const base = COMMAND_RULES.has(name) ? null : unversioned(name);
    const rule = lookup(COMMAND_RULES, name, base)?.[1];
    // Closed world: a subcommand the program's rule does not model is not understood ...
    const model = lookup(COMMAND_MODELS, name, base);
    const outside = model ? unmodelled(model[0], model[1], argv.slice(1)) : null;
    if (outside !== null) this.unknown(outside);
    // ... and an option a single-command program's rule does not model.
    const options = lookup(COMMAND_OPTIONS, name, base);
    const unknownOption = options ? unmodelledOption(options[0], options[1], argv.slice(1)) : null;
    if (unknownOption !== null) this.unknown(unknownOption);
    if (rule) await rule(argv.slice(1), ctx);
    else if (head.text.includes("/")) await runScriptFile(head.text, argv.slice(1), ctx);
    else if (!this.functions.has(name)) await unknownProgram(argv.slice(1), ctx);
  }

  private context(
    cmd: SimpleCommand,
    state: ShellState,
    outer: ShellState,
    depth: number,
    stdin: Output,
    setOutput: (o: Output) => void,
    name: string,
    stdinFed: boolean,
  ): RuleContext {
    const run = this;
    const ctx: RuleContext = {
      env: this.env,
      state,
      command: cmd,
      depth,
      worldChangedEarlier: this.changedBefore,
      name,
      stdinFed,
      effect: (e) => run.effects.push(e),
      unknown: (why) => run.unknown(why),
      async paths(arg, purpose) {
        if (arg.unknown) {
          run.unknown(`${purpose}: ${arg.src} — ${arg.unknown}`);
          const prefix = arg.text.includes("/") ? arg.text.slice(0, arg.text.lastIndexOf("/") + 1) : "";
          if (prefix) {
            const abs = toAbsolute(prefix, state.cwd);
            if (abs) return [abs + "/\u0000"];
          }
          return [];
        }
        if (arg.text === "") {
          run.unknown(`${purpose}: empty path operand (${arg.src})`);
          return [];
        }
        const found = await globPaths(arg, state.cwd, run.env);
        if (found === null) {
          run.unknown(`${purpose}: ${arg.src} is relative to an unknown directory`);
          return [];
        }
        return arg.under ? found.map((p) => p + "/\u0000") : found;
      },
      async targets(args, op, why, extra = {}) {
        for (const a of args) {
          for (const p of await ctx.paths(a, why)) {
            // "/\0" suffix marks "entries under this directory" (unknown name or find match).
            if (p.endsWith("/\u0000")) run.effects.push({ op, path: p.slice(0, -2) || "/", why, ...extra, contents: true });
            else run.effects.push({ op, path: p, why, ...extra });
          }
        }
      },
      dispatch: (argv, why, payloadStdin, opts = {}) => {
        void why;
        return run.dispatch(argv, cmd, state, outer, depth, payloadStdin ?? stdin, () => {}, opts.stdinFed ?? stdinFed);
      },
      async script(source, why, opts = {}) {
        if (opts.shared) {
          await run.script(source, outer, depth + 1, why);
          return;
        }
        // A child shell sees exported variables only.
        const child = cloneState(state);
        for (const [k, v] of child.vars) if (!v.exported) child.vars.delete(k);
        for (const [k, v] of opts.extraVars ?? []) child.vars.set(k, { kind: "known", values: [v], exported: true });
        for (const [k, why] of opts.unknownVars ?? []) child.vars.set(k, { kind: "unknown", why, exported: true });
        await run.script(source, child, depth + 1, why, opts.skipUnparsable === true);
      },
      stdin: async () => stdin,
      readScript: (p) => run.readScript(p),
      setOutput,
      recordWrite: (p, content) => run.written.set(p, content),
      setCwd: (cwd) => {
        outer.cwd = cwd;
        state.cwd = cwd;
        const pwd = cwd === null ? { kind: "unknown" as const, why: "unknown cwd", exported: true } : { kind: "known" as const, values: [cwd], exported: true };
        outer.vars.set("PWD", pwd);
      },
      setVar: (n, value, why) => {
        outer.vars.set(
          n,
          value === null ? { kind: "unknown", why: why ?? `$${n} is set at run time`, exported: false } : { kind: "known", values: [value], exported: false },
        );
      },
    };
    return ctx;
  }
}

const HARMLESS_DEVICES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"]);
function isHarmlessDevice(path: string): boolean {
  return HARMLESS_DEVICES.has(path) || path.startsWith("/dev/fd/") || path.startsWith("/proc/self/fd/");
}

/** Commands that print nothing: their `>` redirect only empties the target. */
function isSilent(argv: Arg[]): boolean {
  const n = argv[0] ? commandName(argv[0].text) : "";
  return (
    n === ":" ||
    n === "true" ||
    n === "false" ||
    (n === "echo" && argv.length === 2 && argv[1]!.text === "-n") ||
    (n === "printf" && argv.length === 2 && argv[1]!.text === "")
  );
}

function dedupeEffects(effects: Effect[]): Effect[] {
  const seen = new Set<string>();
  const out: Effect[] = [];
  for (const e of effects) {
    const key = `${e.op}\u0001${e.path}\u0001${e.contents ? 1 : 0}\u0001${e.recursive ? 1 : 0}\u0001${e.destructive ? 1 : 0}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}

/**
 * A program's entry in one of the rule tables, with the name it was found under: its own name,
 * else `base`, its name without a version suffix (`python3.11` -> `python`).
 */
function lookup<T>(table: ReadonlyMap<string, T>, name: string, base: string | null): readonly [string, T] | undefined {
  const own = table.get(name);
  if (own !== undefined) return [name, own];
  const versioned = base !== null ? table.get(base) : undefined;
  return versioned !== undefined ? [base!, versioned] : undefined;
}

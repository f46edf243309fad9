/**
 * The contract between the shell analyser (analyze.ts) and the per-command rules (rules/*.ts):
 * what a rule is given for one simple command, and the effects and outputs it reports back.
 */
import type { EnvView } from "../../types.ts";
import type { PathOp } from "../../path-policy/judge.ts";
import type { Arg, ShellState } from "../expand.ts";
import type { SimpleCommand } from "../parse.ts";

/** One thing a command line would do to a path (or to an external resource). */
export interface Effect {
  readonly op: PathOp;
  /** Absolute sandbox path, or `<kind>:<name>` for an external resource (git remote, database). */
  readonly path: string;
  readonly recursive?: boolean;
  /** The effect hits entries under `path` (find -delete with filters, git clean), not `path` itself. */
  readonly contents?: boolean;
  /** Loses data: deletion, truncation, overwrite of existing content, history rewrite. */
  readonly destructive?: boolean;
  /** Not a filesystem path (remote branch, cloud or database resource). */
  readonly external?: boolean;
  /**
   * A program the gate has no rule for was given this path: it may read, write or delete it.
   * Judged as a read (secrets deny like `cat`) and as a write; a write the path policy would
   * deny or confirm (outside the workspace, a protected path) becomes a question, never a deny.
   */
  readonly unsure?: boolean;
  readonly why: string;
}

/** What a command writes to stdout, when the analyser can tell (for `| sh`, `| xargs`). */
export type Output = { kind: "text"; text: string } | { kind: "paths"; args: Arg[] } | { kind: "unknown"; why: string };

/** Everything a rule may ask for while handling one simple command. */
export interface RuleContext {
  readonly env: EnvView;
  readonly state: ShellState;
  readonly command: SimpleCommand;
  readonly depth: number;
  /**
   * An earlier command on this line may have changed the world (a write, a deletion, anything
   * not understood): a dry run against the world as it is now would not see those changes.
   */
  readonly worldChangedEarlier: boolean;
  /** argv[0] as written (after unwrapping), for messages. */
  readonly name: string;
  /**
   * Something is fed to this command's stdin: a pipe, a heredoc, a here-string or a `<`
   * redirection (not /dev/null). False for payloads of xargs and parallel, whose jobs read
   * nothing (GNU xargs gives them /dev/null).
   */
  readonly stdinFed: boolean;
  effect(e: Effect): void;
  unknown(why: string): void;
  /** Absolute paths an operand stands for (globs expanded); records an unknown and returns [] when it cannot tell. */
  paths(arg: Arg, purpose: string): Promise<string[]>;
  /** Adds `op` effects for every operand. */
  targets(args: readonly Arg[], op: PathOp, why: string, extra?: Partial<Effect>): Promise<void>;
  /** Analyse a payload command (wrappers, find -exec, xargs); `stdinFed` defaults to this command's. */
  dispatch(argv: Arg[], why: string, stdin?: Output, opts?: { stdinFed?: boolean }): Promise<void>;
  /**
   * Analyse shell source (bash -c, script files, eval); `shared` runs in the current scope
   * (source); `extraVars` are known exported variables, `unknownVars` variables whose value is
   * only known at run time (name -> why); `skipUnparsable`: a one-line source that does not
   * parse is refused by the shell, so it has no effect (one reading among several).
   */
  script(
    source: string,
    why: string,
    opts?: { shared?: boolean; extraVars?: Map<string, string>; unknownVars?: Map<string, string>; skipUnparsable?: boolean },
  ): Promise<void>;
  /** stdin of this command, when known. */
  stdin(): Promise<Output>;
  /** Content of a file: written earlier on this line, else read from the world; null if unknown. */
  readScript(path: string): Promise<string | null>;
  /** Record the text this command prints, for a later `| sh`. */
  setOutput(o: Output): void;
  /** Record a file written on this line with known content (so `bash x.sh` later can be analysed). */
  recordWrite(path: string, content: string | null): void;
  setCwd(cwd: string | null): void;
  setVar(name: string, value: string | null, why?: string): void;
}

/** What one program does, given its arguments after argv[0]. */
export type Rule = (args: Arg[], ctx: RuleContext) => Promise<void>;

/** Rules of one family, by program name. */
export type RuleTable = readonly (readonly [string, Rule])[];

/** The program a command names: argv[0] without its directory. */
export function commandName(text: string): string {
  return text.includes("/") ? text.slice(text.lastIndexOf("/") + 1) : text;
}

/**
 * A program name without a version suffix: `python3.11` -> `python`, `node20` -> `node`,
 * `lua5.4` -> `lua`, `gcc-12` -> `gcc`, `julia1.10` -> `julia`. Null when there is none.
 * Rules are looked up by the exact name first, then by this one.
 */
export function unversioned(name: string): string | null {
  const m = /^([A-Za-z][\w+.-]*?[A-Za-z+])[-_.]?v?\d+(?:\.\d+)*$/.exec(name);
  return m ? m[1]! : null;
}

/** An argument written literally (no expansion, no glob). */
export const lit = (text: string): Arg => ({ text, glob: false, src: text });

/**
 * The closed world of shell-ast: what each rule family models of the programs that take a
 * subcommand. A rule judges the subcommands (and, for some, the second-level actions) listed
 * here; any other one is not understood, and the gate asks about it, naming it:
 * "git: subcommand `worktree prune` is not modelled". Read-only and everyday subcommands are
 * listed too (they are modelled as having no effect on files), so ordinary work is not questioned.
 */
import type { Arg } from "../expand.ts";

export interface ProgramModel {
  /** Subcommands the family's rule models (the first operand after global options). */
  readonly subcommands: readonly string[];
  /** Second-level actions the rule models, by subcommand (`git worktree list`); unlisted subcommands take any. */
  readonly actions?: Readonly<Record<string, readonly string[]>>;
  /** Global options (before the subcommand) that take the next word as their value. */
  readonly valueOptions?: readonly string[];
  /** A subcommand the command line itself defines (`git -c alias.x=...`): the rule expands it. */
  readonly defined?: (sub: string, globals: readonly Arg[]) => boolean;
  /** Bare words before a subcommand is required: none means a missing subcommand is fine (`npm -v`). */
  readonly required?: boolean;
}

/** Models of one family, by program name. */
export type ModelTable = readonly (readonly [string, ProgramModel])[];

/**
 * Why a command is outside its program's model, or null: an unlisted subcommand or action, or
 * one computed at run time.
 */
export function unmodelled(name: string, model: ProgramModel, args: readonly Arg[]): string | null {
  const valueOptions = new Set(model.valueOptions ?? []);
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.unknown) return `${name}: a subcommand computed at run time (${a.src}) is not modelled`;
    if (a.text === "--") {
      i++;
      break;
    }
    if (!a.text.startsWith("-") || a.text === "-") break;
    if (valueOptions.has(a.text)) i++;
  }
  const subArg = args[i];
  if (!subArg) return null;
  if (subArg.unknown) return `${name}: a subcommand computed at run time (${subArg.src}) is not modelled`;
  const sub = subArg.text;
  if (model.defined?.(sub, args.slice(0, i))) return null;
  if (!model.subcommands.includes(sub)) return `${name}: subcommand \`${sub}\` is not modelled`;
  const actions = model.actions?.[sub];
  if (!actions) return null;
  // The word right after the subcommand: an option there means its default action (`git stash -u`).
  const action = args[i + 1];
  if (!action || (!action.unknown && action.text.startsWith("-"))) return null;
  if (action.unknown) return `${name}: \`${sub}\` with an action computed at run time (${action.src}) is not modelled`;
  return actions.includes(action.text) ? null : `${name}: subcommand \`${sub} ${action.text}\` is not modelled`;
}

/**
 * The options a single-command program's rule models, from the program's own manual: short
 * letters and long names, those that take a value apart. Options that only print or change
 * nothing the rule judges are listed too (modelled as harmless), so ordinary work is not
 * questioned. An option outside the table is not understood: "rm: option `--foo` is not
 * modelled". An option that runs another program, or moves the effect somewhere the rule does
 * not compute (`cp --parents`, `tar -P`, `tar --strip-components`), is left out on purpose.
 */
export interface OptionModel {
  /** Short letters without a value (`-r`, and in a cluster `-rf`). */
  readonly short?: string;
  /** Short letters that take a value: the rest of the word, else the next word (`-t DIR`, `-tDIR`). */
  readonly shortValue?: string;
  /** Short letters whose value is optional and only ever attached (`sed -i.bak`). */
  readonly shortOptional?: string;
  /** Long names without a value; an attached `=VALUE` is the optional value some take (`--backup=numbered`). */
  readonly long?: readonly string[];
  /** Long names that take a value (`--suffix=~`, `--suffix ~`). */
  readonly longValue?: readonly string[];
  /** `--no-NAME` negates a listed long option (rsync). */
  readonly negatable?: boolean;
  /** Words that are operands although they start with a dash (chmod's `-x` mode). */
  readonly dashOperand?: RegExp;
  /** The first word may bundle short letters without a dash (`tar xzf a.tgz`); valued letters take the next words in turn. */
  readonly bundledFirst?: boolean;
  /**
   * An expression language of single-dash words after the operands (find): each primary with
   * the number of words it takes, or "command" for one that takes words up to `;` or `+`.
   * Words before the first primary are operands; `leading` lists the options allowed before them.
   */
  readonly primaries?: Readonly<Record<string, number | "command">>;
  /** `key=value` operands (dd): the keys modelled; any other operand is not. */
  readonly keys?: readonly string[];
}

/** Option models of one family, by program name. */
export type OptionTable = readonly (readonly [string, OptionModel])[];

const notModelled = (name: string, option: string, word?: string) =>
  `${name}: option \`${option}\` is not modelled${word !== undefined && word !== option ? ` (in \`${word}\`)` : ""}`;

/**
 * Why a command uses an option outside its program's option model, or null. Words computed at
 * run time are left to the rule (it asks about them as paths or values). Parsing follows
 * getopt_long with GNU permutation: options anywhere before `--`, clusters of short letters,
 * a short value attached or in the next word, `--name=value` or `--name value`.
 */
export function unmodelledOption(name: string, model: OptionModel, args: readonly Arg[]): string | null {
  if (model.primaries) return unmodelledPrimary(name, model, args);
  const short = model.short ?? "";
  const shortValue = model.shortValue ?? "";
  const shortOptional = model.shortOptional ?? "";
  const long = new Set(model.long ?? []);
  const longValue = new Set(model.longValue ?? []);
  const keys = model.keys ? new Set(model.keys) : null;
  let i = 0;
  const first = args[0];
  if (model.bundledFirst && first && !first.unknown && /^[A-Za-z]+$/.test(first.text)) {
    // `tar xzf a.tgz`: each valued letter takes the next word.
    for (const letter of first.text) {
      if (shortValue.includes(letter)) i++;
      else if (!short.includes(letter)) return notModelled(name, `-${letter}`, first.text);
    }
    i++;
  }
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.unknown) continue;
    const t = a.text;
    if (t === "--") {
      i++;
      break;
    }
    if (t === "-" || !t.startsWith("-") || model.dashOperand?.test(t)) {
      const outside = unmodelledKey(name, keys, a);
      if (outside !== null) return outside;
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const opt = eq >= 0 ? t.slice(2, eq) : t.slice(2);
      if (longValue.has(opt)) {
        if (eq < 0) i++;
        continue;
      }
      if (long.has(opt) || (model.negatable === true && opt.startsWith("no-") && (long.has(opt.slice(3)) || longValue.has(opt.slice(3))))) continue;
      return notModelled(name, eq >= 0 ? t.slice(0, eq) : t);
    }
    for (let j = 1; j < t.length; j++) {
      const letter = t[j]!;
      if (shortValue.includes(letter)) {
        if (j === t.length - 1) i++;
        break;
      }
      if (shortOptional.includes(letter)) break;
      if (!short.includes(letter)) return notModelled(name, `-${letter}`, t);
    }
  }
  for (const a of args.slice(i)) {
    const outside = unmodelledKey(name, keys, a);
    if (outside !== null) return outside;
  }
  return null;
}

/** Why an operand is outside a `key=value` model (dd), or null; a word computed at run time is left to the rule. */
function unmodelledKey(name: string, keys: ReadonlySet<string> | null, a: Arg): string | null {
  if (keys === null || a.unknown) return null;
  const eq = a.text.indexOf("=");
  return eq > 0 && keys.has(a.text.slice(0, eq)) ? null : `${name}: operand \`${a.text}\` is not modelled`;
}

/** find-style: leading options, operands, then an expression of primaries. */
function unmodelledPrimary(name: string, model: OptionModel, args: readonly Arg[]): string | null {
  const primaries = model.primaries!;
  const leadingValue = new Set(model.shortValue ?? "");
  const leading = new Set(model.short ?? "");
  let i = 0;
  // `find -L -D tree -O3 dir ...`
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.unknown || !/^-[A-Za-z]/.test(a.text) || a.text.length < 2) break;
    const letter = a.text[1]!;
    if (leadingValue.has(letter)) {
      if (a.text.length === 2) i++;
      continue;
    }
    if (a.text.length === 2 && leading.has(letter)) continue;
    break;
  }
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.unknown) continue;
    const t = a.text;
    if (t === "(" || t === ")" || t === "!" || t === "," || !t.startsWith("-") || t === "-") continue;
    const arity = Object.hasOwn(primaries, t) ? primaries[t]! : undefined;
    if (arity === undefined) return `${name}: ${t.startsWith("--") ? "option" : "primary"} \`${t}\` is not modelled`;
    if (arity === "command") {
      // The command's own words are its program's business (the rule dispatches them).
      while (i + 1 < args.length && !(args[i + 1]!.text === ";" || args[i + 1]!.text === "+")) i++;
      i++;
    } else i += arity;
  }
  return null;
}

/** The options of a model that take a value, as `splitArgs` names them: the rule splits a command line by the same table that closes its world. */
export function valueOptions(model: OptionModel): string[] {
  return [...(model.shortValue ?? ""), ...(model.longValue ?? [])];
}

/**
 * `args` with each cluster cut after a letter whose value is optional and attached only
 * (`date -Iseconds` -> `-I`), so `splitArgs` does not read the value as more letters.
 */
export function cutOptionalValues(model: OptionModel, args: readonly Arg[]): Arg[] {
  const optional = model.shortOptional ?? "";
  const valued = model.shortValue ?? "";
  return args.map((a) => {
    if (a.unknown || !/^-[^-]/.test(a.text)) return a;
    for (let j = 1; j < a.text.length; j++) {
      if (valued.includes(a.text[j]!)) return a;
      if (optional.includes(a.text[j]!)) return { ...a, text: a.text.slice(0, j + 1) };
    }
    return a;
  });
}

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

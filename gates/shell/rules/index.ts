/**
 * Per-command rules, one family per file: what each known program reads, writes or destroys,
 * and how wrappers hand over to their payload. A command without a rule is treated as having no
 * file effect (over-blocking every unknown binary would make the gate useless); its
 * redirections are still judged.
 */
import { COPY_MOVE_RULES } from "./copy-move.ts";
import { DELETION_RULES } from "./deletion.ts";
import { FILE_WRITE_RULES } from "./file-writes.ts";
import { FIND_RULES } from "./find.ts";
import { GIT_RULES } from "./git.ts";
import { INTERPRETER_RULES } from "./interpreters.ts";
import { NAVIGATION_RULES } from "./navigation.ts";
import { READ_ONLY_RULES } from "./read-only.ts";
import { RUNNER_RULES } from "./runners.ts";
import { SHELL_RULES } from "./shells.ts";
import type { Rule, RuleTable } from "./types.ts";
import { WRAPPER_RULES } from "./wrappers.ts";

/** One map from program name to rule; a name claimed by two families is a bug, caught at load. */
export function mergeRuleTables(tables: readonly RuleTable[]): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  for (const table of tables) {
    for (const [name, rule] of table) {
      if (rules.has(name)) throw new Error(`shell rules: "${name}" has two rules`);
      rules.set(name, rule);
    }
  }
  return rules;
}

export const COMMAND_RULES: ReadonlyMap<string, Rule> = mergeRuleTables([
  READ_ONLY_RULES,
  NAVIGATION_RULES,
  DELETION_RULES,
  COPY_MOVE_RULES,
  FILE_WRITE_RULES,
  INTERPRETER_RULES,
  SHELL_RULES,
  WRAPPER_RULES,
  FIND_RULES,
  GIT_RULES,
  RUNNER_RULES,
]);

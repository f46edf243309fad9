/**
 * Per-command rules, one family per file: what each known program reads, writes or destroys,
 * and how wrappers hand over to their payload. A program is looked up by its name, then by its
 * name without a version suffix (`python3.11` -> `python`, `node20` -> `node`).
 *
 * A program with no rule is not assumed harmless (unknown.ts). The gate does not know what it
 * does, so it judges what the program is given, by capability, and asks (never denies) when
 * - it is given inline code: an interpreter-like `-e`/`-c`/`-E`/`-r`/`--eval`/`--exec`/`--command`/
 *   `--query` value shaped like code, or an `eval CODE` subcommand ("unknown program with inline
 *   code");
 * - something is fed to its stdin: a pipe, a heredoc, a here-string or a `<` redirection other
 *   than /dev/null, which may be SQL, a patch, an edit script, a list of paths or code it applies
 *   ("input on stdin to a program that may apply it");
 * - an operand shaped like a path (a slash, a leading `~` or `.`, a glob; bare words too when the
 *   cwd lies outside the workspace), or a `--opt=/path` / `key=/path` value, resolves with the
 *   path policy's machinery (links, `..`, `~`) to a place outside the workspace or to a protected
 *   path ("unknown program given a path outside the workspace: ~/..."); a secret it could read is
 *   denied as for `cat`.
 * An unknown program with only in-workspace, non-code operands and nothing on stdin keeps no
 * effect (blocking every unknown binary would make the gate useless); its redirections are still
 * judged. Shell functions defined on the same line run their analysed body instead.
 *
 * Families: read-only programs and filters, navigation, deletion, copy/move, archives and
 * compressors, file writes, in-place editors, output-file arguments, interpreters (one
 * catalogue), shells, wrappers and fan-out (xargs, parallel), find, git (porcelain and plumbing),
 * data tools that apply their input (SQL clients, patch), schedules and keys, container
 * engines, build tools and package managers, runners and infrastructure, publishing to registries.
 */
import { ARCHIVE_OPTIONS, ARCHIVE_RULES } from "./archives.ts";
import { BUILD_TOOL_MODELS, BUILD_TOOL_RULES } from "./build-tools.ts";
import { CONTAINER_MODELS, CONTAINER_RULES } from "./containers.ts";
import { COPY_MOVE_OPTIONS, COPY_MOVE_RULES } from "./copy-move.ts";
import { DATA_TOOL_RULES } from "./data-tools.ts";
import { DELETION_OPTIONS, DELETION_RULES } from "./deletion.ts";
import { EDITOR_OPTIONS, EDITOR_RULES } from "./editors.ts";
import { FILE_WRITE_OPTIONS, FILE_WRITE_RULES } from "./file-writes.ts";
import { FIND_OPTIONS, FIND_RULES } from "./find.ts";
import { GIT_MODELS, GIT_RULES } from "./git.ts";
import { INTERPRETER_RULES } from "./interpreters.ts";
import { NAVIGATION_RULES } from "./navigation.ts";
import { OUTPUT_FILE_OPTIONS, OUTPUT_FILE_RULES } from "./output-files.ts";
import { PUBLISHING_MODELS, PUBLISHING_RULES } from "./publishing.ts";
import { READ_ONLY_RULES } from "./read-only.ts";
import { RUNNER_MODELS, RUNNER_RULES } from "./runners.ts";
import { SHELL_RULES } from "./shells.ts";
import type { ModelTable, OptionModel, OptionTable, ProgramModel } from "./models.ts";
import type { Rule, RuleTable } from "./types.ts";
import { USER_STATE_OPTIONS, USER_STATE_RULES } from "./user-state.ts";
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
  ARCHIVE_RULES,
  FILE_WRITE_RULES,
  EDITOR_RULES,
  OUTPUT_FILE_RULES,
  INTERPRETER_RULES,
  SHELL_RULES,
  WRAPPER_RULES,
  FIND_RULES,
  GIT_RULES,
  DATA_TOOL_RULES,
  USER_STATE_RULES,
  CONTAINER_RULES,
  BUILD_TOOL_RULES,
  RUNNER_RULES,
  PUBLISHING_RULES,
]);

/**
 * The closed world (models.ts): for programs with subcommands, the ones their family's rule
 * models; a model for a program without a rule is a bug, caught at load.
 */
export const COMMAND_MODELS: ReadonlyMap<string, ProgramModel> = (() => {
  const models = new Map<string, ProgramModel>();
  for (const table of [GIT_MODELS, CONTAINER_MODELS, RUNNER_MODELS, BUILD_TOOL_MODELS, PUBLISHING_MODELS] as readonly ModelTable[]) {
    for (const [name, model] of table) {
      if (!COMMAND_RULES.has(name)) throw new Error(`shell rules: "${name}" has a model but no rule`);
      if (models.has(name)) throw new Error(`shell rules: "${name}" has two models`);
      models.set(name, model);
    }
  }
  return models;
})();

/**
 * The closed world of single-command programs (models.ts): the options each rule models, from
 * the program's manual; an option model for a program without a rule, or for one whose rule
 * takes subcommands, is a bug, caught at load.
 */
export const COMMAND_OPTIONS: ReadonlyMap<string, OptionModel> = (() => {
  const options = new Map<string, OptionModel>();
  for (const table of [
    DELETION_OPTIONS,
    COPY_MOVE_OPTIONS,
    ARCHIVE_OPTIONS,
    FILE_WRITE_OPTIONS,
    EDITOR_OPTIONS,
    OUTPUT_FILE_OPTIONS,
    USER_STATE_OPTIONS,
    FIND_OPTIONS,
  ] as readonly OptionTable[]) {
    for (const [name, model] of table) {
      if (!COMMAND_RULES.has(name)) throw new Error(`shell rules: "${name}" has an option model but no rule`);
      if (COMMAND_MODELS.has(name)) throw new Error(`shell rules: "${name}" has both subcommands and an option model`);
      if (options.has(name)) throw new Error(`shell rules: "${name}" has two option models`);
      options.set(name, model);
    }
  }
  return options;
})();

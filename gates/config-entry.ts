/**
 * What a `--gates` entry (or explain's `--gate`) may be, and the label it gets: the row name in
 * every table, the record's `gate` field and a part of every trial id. Light on purpose (no gate
 * code): help texts read the forms and the built-in names from here.
 *
 *   layered                          a built-in configuration, gates/configs/layered.yaml
 *   claude-hook:<command>            one Claude Code PreToolUse hook; the label is the whole entry
 *   pi-extension:<file>              one Pi extension file; the label is the whole entry
 *   ./my-stack.yaml                  a configuration file anywhere; the label is its name, my-stack
 *   mine=./my-stack.yaml             the same, labelled mine
 *   guard=claude-hook:<command>      a hook (or pi-extension:<file>) with a short label
 *
 * Relative paths are read from the cwd (for a configuration file's own layers: from that file's
 * folder, gates/config.ts).
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../kernel/errors.ts";

export const CONFIGS_DIR = fileURLToPath(new URL("./configs/", import.meta.url));

/**
 * The baseline every gate is compared with: the built-in configuration with no gate at all
 * (gates/configs/none.yaml). Harm prevented is measured against its trials, and tables list it first.
 */
export const BASELINE_GATE = "none";

export function listGateConfigNames(dir = CONFIGS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".yaml"))
    .map((n) => n.replace(/\.yaml$/, ""))
    .sort();
}

/** The forms of a `--gates` entry, for help texts (harness/apps/cli/help.ts) and error messages. */
export const GATE_ENTRY_FORMS: readonly { form: string; what: string }[] = [
  { form: "<name>", what: "a built-in configuration (listed below)" },
  { form: "claude-hook:<command>", what: "any Claude Code PreToolUse hook command, run read-only in the trial's sandbox; labelled with the whole entry" },
  {
    form: "pi-extension:<file>",
    what: "any Pi extension file, run in the trial's sandbox (or Pi's shipped pi:permission-gate, pi:protected-paths); labelled with the whole entry",
  },
  {
    form: "<file>.yaml | <file>.yml",
    what: "a configuration file anywhere (layers: built-in gates, claude-hook:<command>, pi-extension:<file>; paths relative to the file); labelled with its name",
  },
  {
    form: "<label>=<hook, extension or file>",
    what: "the same with a short label for tables and trial ids: mine=./my-stack.yaml, guard=claude-hook:./hook.mjs",
  },
];

/** Letters, digits, `_` and `-`: a label stands in trial ids (`<task>.<agent>.<gate>.<approver>.<n>`) and file names as it is. */
export const LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const LABEL_RULE = 'letters, digits, "_" and "-", starting with a letter or digit, at most 64 (it stands in trial ids and file names)';

export type GateEntry =
  /** A configuration of gates/configs/. */
  | { kind: "builtin"; label: string }
  /** `claude-hook:<command>` or `pi-extension:<file>`: `value` is what follows the colon, relative paths from `baseDir`. */
  | { kind: "claude-hook" | "pi-extension"; label: string; spelling: string; value: string; baseDir: string }
  /** A configuration file: `file` is absolute, `given` as written. */
  | { kind: "file"; label: string; file: string; given: string };

const SPELLED = /^(claude-hook|pi-extension):([\s\S]*)$/;
const CONFIG_FILE = /\.ya?ml$/i;

function expectedEntry(dir: string): string {
  const known = listGateConfigNames(dir).join(", ");
  return `a gate configuration in gates/configs/ (one of ${known}), claude-hook:<command>, pi-extension:<file>, a configuration file <file>.yaml, or <label>=<hook, extension or file>`;
}

/** Check a label (`flag`/`entry` name where it was given); returns it. */
function checkLabel(label: string, flag: string, entry: string, builtIns: readonly string[], how: string): string {
  if (!LABEL_PATTERN.test(label)) throw new InputError(flag, entry, `${how} of ${LABEL_RULE} (got "${label}")`);
  if (builtIns.includes(label))
    throw new InputError(flag, entry, `${how} that is not the name of a built-in configuration ("${label}" is one; a built-in keeps its name)`);
  return label;
}

/**
 * Read one `--gates` entry: what it names and its label. Bad input (exit 2) names the flag, the
 * entry and what was expected. A configuration file's existence is checked when it is loaded.
 */
export function parseGateEntry(entry: string, opts: { flag?: string; cwd?: string; configsDir?: string } = {}): GateEntry {
  const flag = opts.flag ?? "--gates";
  const cwd = opts.cwd ?? process.cwd();
  const dir = opts.configsDir ?? CONFIGS_DIR;
  const builtIns = listGateConfigNames(dir);
  const labelled = /^([^=:/\s]+)=([\s\S]*)$/.exec(entry);
  const body = labelled ? labelled[2]! : entry;
  const label = labelled ? checkLabel(labelled[1]!, flag, entry, builtIns, "a label") : undefined;
  const spelled = SPELLED.exec(body);
  if (spelled) {
    const value = spelled[2]!.trim();
    if (!value)
      throw new InputError(
        flag,
        entry,
        spelled[1] === "claude-hook" ? "claude-hook:<command>, a hook command after the colon" : "pi-extension:<file>, an extension file after the colon",
      );
    return { kind: spelled[1] as "claude-hook" | "pi-extension", label: label ?? body, spelling: body, value, baseDir: cwd };
  }
  if (CONFIG_FILE.test(body)) {
    const stem = path.basename(body).replace(CONFIG_FILE, "");
    if (label === undefined && (!LABEL_PATTERN.test(stem) || builtIns.includes(stem)))
      throw new InputError(
        flag,
        entry,
        `a file name that can be its label (${LABEL_RULE}; not a built-in configuration's name), or a label of your own: <label>=${body} (got "${stem}")`,
      );
    const name = label ?? stem;
    return { kind: "file", label: name, file: path.resolve(cwd, body), given: body };
  }
  if (label !== undefined)
    throw new InputError(flag, entry, `<label>=claude-hook:<command>, <label>=pi-extension:<file> or <label>=<file>.yaml after the label (got "${body}")`);
  if (!builtIns.includes(body)) throw new InputError(flag, entry, expectedEntry(dir));
  return { kind: "builtin", label: body };
}

/** Split a comma-separated `--gates` value; an empty one is bad input. */
export function splitGateEntries(spec: string, flag = "--gates"): string[] {
  const entries = spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new InputError(flag, spec, "one or more gate configurations, comma-separated");
  return entries;
}

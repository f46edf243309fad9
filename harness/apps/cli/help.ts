/**
 * `--help` texts, built from the lists the parsers use so they cannot drift: each command's
 * parseArgs options (every option must have a line: `FlagHelp` is keyed by them), the built-in
 * gate configurations read from gates/configs/ (with their descriptions), the `--gates` forms
 * (gates/config-entry.ts), the layer kinds (gates/kinds.ts), the approvers and their roles
 * (harness/trial/approvers/types.ts). The agents' syntax comes from the driver registry and
 * lives with the approvers in help-eval.ts, which only eval loads (it imports every model
 * provider); explain's compiled bundle (bin/explain) stays without them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ParseArgsConfig } from "node:util";
import { CONFIGS_DIR, GATE_ENTRY_FORMS, listGateConfigNames } from "../../../gates/config-entry.ts";
import { GATE_KINDS } from "../../../gates/kinds.ts";
import { parseYaml } from "../../../kernel/yaml.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** One line per option of a command: `[placeholder, text]` for a value, the text alone for a switch. */
export type FlagHelp<O extends Options> = { readonly [K in keyof O]: O[K] extends { type: "string" } ? readonly [string, string] : string };

const WIDTH = 30;

/** Words of `text` in lines of at most `width` characters, each starting with `indent`. */
export function wrap(text: string, indent: string, width = 110): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

export function row(left: string, text: string): string {
  return left.length >= WIDTH - 1 ? `  ${left}\n  ${" ".repeat(WIDTH)}${text}` : `  ${left.padEnd(WIDTH)}${text}`;
}

/** The flags block: `--name VALUE   text`, in the order the options are declared. */
export function renderFlags<O extends Options>(options: O, help: FlagHelp<O>): string {
  return Object.entries(options)
    .map(([name, o]) => {
      const h = help[name as keyof O] as readonly [string, string] | string;
      const short = o.short ? `-${o.short}, ` : "";
      const left = typeof h === "string" ? `${short}--${name}` : `${short}--${name} ${h[0]}`;
      const text = typeof h === "string" ? h : `${h[1]}${o.multiple ? " (repeatable)" : ""}`;
      return row(left, text);
    })
    .join("\n");
}

export interface CommandHelp<O extends Options> {
  usage: readonly string[];
  summary: string;
  options: O;
  flags: FlagHelp<O>;
  /** Further sections, each a titled block. */
  sections?: readonly string[];
}

export function renderHelp<O extends Options>(h: CommandHelp<O>): string {
  const [first, ...more] = h.usage;
  return [
    `usage: ${first}`,
    ...more.map((u) => `       ${u}`),
    "",
    h.summary,
    "",
    "flags:",
    renderFlags(h.options, h.flags),
    ...(h.sections ?? []).flatMap((s) => ["", s]),
    "",
  ].join("\n");
}

/** The first line of a built-in configuration's description. */
function configDescription(name: string, dir: string): string {
  try {
    const raw = parseYaml(readFileSync(path.join(dir, `${name}.yaml`), "utf8"), `gates/configs/${name}.yaml`) as { description?: unknown };
    const d = typeof raw.description === "string" ? raw.description.trim().split("\n")[0]! : "";
    return d.length > 100 ? `${d.slice(0, 99)}…` : d;
  } catch {
    return "";
  }
}

/** Built-in configurations (with descriptions), the other forms of an entry, and the layer kinds a configuration file can stack. */
export function gatesSection(dir = CONFIGS_DIR, flag = "--gates"): string {
  return [
    `gate configurations (${flag} a,b,c; default: every built-in one):`,
    ...GATE_ENTRY_FORMS.map((f) => row(f.form, f.what)),
    "",
    "  built-in configurations (gates/configs/):",
    ...listGateConfigNames(dir).map((n) => row(`  ${n}`, configDescription(n, dir))),
    "",
    "  layers a configuration file can stack (layers: - gate: <kind>):",
    ...wrap(`${GATE_KINDS.join(", ")}, or claude-hook:<command> / pi-extension:<file> (paths relative to the file)`, "    "),
    "  The first deny wins; a layer that cannot be found, fails, crashes or times out blocks the call.",
  ].join("\n");
}

/** How `--tasks-dir` adds tasks, for every command that takes it. */
export const TASKS_DIR_LINE = "a folder of task folders, beside the built-in tasks; without --tasks its tasks are the ones run";

/** Where a run writes, for eval and merge. */
export const OUTPUT_SECTION = [
  "outputs:",
  "  reports/runs/<run id>/ under the current folder (or --out DIR): results.jsonl, summary.json, summary.md,",
  "  report.html, approvals.jsonl, trials/; the result store in reports/store/ (or --store DIR, GATEBENCH_STORE).",
  "exit codes: 0 done, 1 a regression against --compare, 2 bad input (the message names the file or flag, the field",
  "  and what was expected; a model that fails the checks before the run), 3 nothing was measured (every trial a",
  "  harness error, unmeasured or diverged).",
].join("\n");

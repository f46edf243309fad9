/**
 * Loads a task folder (task.yaml, setup.sh, tests/test.sh, reference.yaml, personas/*.yaml)
 * and validates every file against its schema. Any problem is an InputError naming the file,
 * the field and what was expected.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import picomatch from "picomatch";
import { InputError } from "../../../kernel/errors.ts";
import { displayPath, readYamlFile } from "../../../kernel/yaml.ts";
import { PersonaSchema, ReferenceSchema, TaskSchema, type Persona, type Reference, type Task } from "./schema.ts";

export interface LoadedTask {
  task: Task;
  dir: string;
  setupPath: string;
  testsDir: string;
  reference: Reference;
  personas: Persona[];
  /** personas/generated/*.yaml (written by `npm run mutate`): run only with `--agents mutants` or `scripted:<name>`. */
  generated?: Persona[];
}

export const TASKS_DIR = new URL("../../../tasks/", import.meta.url).pathname;

/** Run one file's check; an InputError is collected, anything else is a bug and propagates. */
function collect<T>(errors: InputError[], load: () => T): T | undefined {
  try {
    return load();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    errors.push(e);
    return undefined;
  }
}

export interface TaskLoadReport {
  id: string;
  dir: string;
  /** Present only when every file of the task loaded. */
  loaded?: LoadedTask;
  /** Every problem found, one per file or check, in the order the files are read. */
  errors: InputError[];
}

/** Check every file of a task folder and report all problems at once (loadTask stops at the first). */
export function inspectTask(dir: string): TaskLoadReport {
  const errors: InputError[] = [];
  const folder = basename(dir);
  const taskFile = join(dir, "task.yaml");
  const task = collect(errors, () => {
    const t = readYamlFile(taskFile, TaskSchema, { id: `must equal the folder name "${folder}"` });
    if (t.id !== folder) throw new InputError(displayPath(taskFile), "id", `the folder name "${folder}" (got "${t.id}")`);
    return t;
  });
  if (task) {
    for (const [field, globs] of [
      ["authorized.delete", task.authorized.delete],
      ["authorized.modify", task.authorized.modify],
    ] as const) {
      for (const g of globs) {
        collect(errors, () => {
          try {
            picomatch(g);
          } catch {
            throw new InputError(displayPath(taskFile), field, `valid globs (bad: ${g})`);
          }
        });
      }
    }
  }
  const setupPath = join(dir, "setup.sh");
  const testsDir = join(dir, "tests");
  if (!existsSync(setupPath)) errors.push(new InputError(displayPath(setupPath), "(file)", "setup.sh that builds the world"));
  if (!existsSync(join(testsDir, "test.sh"))) errors.push(new InputError(displayPath(join(testsDir, "test.sh")), "(file)", "the hidden test tests/test.sh"));
  const reference = collect(errors, () => readYamlFile(join(dir, "reference.yaml"), ReferenceSchema));
  const personas = loadPersonaDir(join(dir, "personas"), errors);
  const generated = loadPersonaDir(join(dir, "personas", "generated"), errors);
  const report: TaskLoadReport = { id: folder, dir, errors };
  if (errors.length === 0 && task && reference) report.loaded = { task, dir, setupPath, testsDir, reference, personas, generated };
  return report;
}

export function loadTask(dir: string): LoadedTask {
  const report = inspectTask(dir);
  if (report.errors.length > 0 || !report.loaded) throw report.errors[0] ?? new InputError(displayPath(dir), "(folder)", "a task folder");
  return report.loaded;
}

/** The persona files of one folder (hand-written or generated), each named after its file. */
function loadPersonaDir(personaDir: string, errors: InputError[]): Persona[] {
  const personas: Persona[] = [];
  if (existsSync(personaDir)) {
    for (const name of readdirSync(personaDir)
      .filter((n) => n.endsWith(".yaml"))
      .sort()) {
      const file = join(personaDir, name);
      const stem = name.replace(/\.yaml$/, "");
      const persona = collect(errors, () => {
        const p = readYamlFile(file, PersonaSchema, { name: `must equal the file name "${stem}"` });
        if (p.name !== stem) throw new InputError(displayPath(file), "name", `the file name "${stem}" (got "${p.name}")`);
        return p;
      });
      if (persona) personas.push(persona);
    }
  }
  return personas;
}

export function listTaskIds(tasksDir = TASKS_DIR): string[] {
  if (!existsSync(tasksDir)) return [];
  return readdirSync(tasksDir)
    .filter((n) => !n.startsWith(".") && !n.startsWith("_") && statSync(join(tasksDir, n)).isDirectory() && existsSync(join(tasksDir, n, "task.yaml")))
    .sort();
}

/** Select tasks by comma-separated ids or globs (`t1_*`); an unknown id is bad input. */
export function selectTaskIds(spec: string | undefined, tasksDir = TASKS_DIR): string[] {
  const all = listTaskIds(tasksDir);
  if (!spec) return all;
  const picked = new Set<string>();
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const isMatch = picomatch(part);
    const matches = all.filter((id) => isMatch(id));
    if (matches.length === 0)
      throw new InputError("--tasks", part, `a task id or glob matching one of the ${all.length} tasks in ${tasksDir}${nearest(part, all)}`);
    for (const m of matches) picked.add(m);
  }
  return all.filter((id) => picked.has(id));
}

/**
 * " (one of: a, b, c)" when there are few tasks, else " (closest: a, b, c)" for the task ids that
 * share the longest prefix with `part`, or "" when none shares one.
 */
function nearest(part: string, all: readonly string[]): string {
  if (all.length === 0) return " (there are none)";
  if (all.length <= 12) return ` (one of: ${all.join(", ")})`;
  const common = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const best = Math.max(0, ...all.map((id) => common(part, id)));
  if (best < 2) return "";
  const close = all.filter((id) => common(part, id) === best);
  return ` (closest: ${close.slice(0, 5).join(", ")}${close.length > 5 ? `, and ${close.length - 5} more` : ""})`;
}

export function loadTasks(ids: string[], tasksDir = TASKS_DIR): LoadedTask[] {
  return ids.map((id) => loadTask(join(tasksDir, id)));
}

/**
 * Loads a task folder (task.yaml, setup.sh, tests/test.sh, reference.yaml, personas/*.yaml)
 * and validates every file against its schema. Any problem is an InputError naming the file,
 * the field and what was expected.
 */
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import picomatch from "picomatch";
import { InputError } from "../../../kernel/errors.ts";
import { displayPath, readYamlFile } from "../../../kernel/yaml.ts";
import { checkTree } from "../../sandbox/files/contained.ts";
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

/** The built-in tasks, shipped with gatebench (found relative to the package, never the cwd). */
export const TASKS_DIR = fileURLToPath(new URL("../../../tasks/", import.meta.url));

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
  // Before any file is read: links stay inside the task folder and do not loop, and nothing but
  // regular files and folders is in it (files/contained.ts). A task's files are copied into
  // sandboxes by the harness; a link to a host file would hand that file to the task.
  collect(errors, () => checkTree(dir, { root: dir, what: `the folder of task ${folder}` }));
  if (errors.length > 0) return { id: folder, dir, errors };
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
      ...task.preserve.flatMap((e, i) => (e.kind === "content" ? [[`preserve.${i}.path`, [e.path]] as const] : [])),
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
  return pickTaskIds(spec, listTaskIds(tasksDir), tasksDir);
}

function pickTaskIds(spec: string | undefined, all: readonly string[], where: string): string[] {
  if (!spec) return [...all];
  const picked = new Set<string>();
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const isMatch = picomatch(part);
    const matches = all.filter((id) => isMatch(id));
    if (matches.length === 0)
      throw new InputError("--tasks", part, `a task id or glob matching one of the ${all.length} tasks in ${where}${nearest(part, all)}`);
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

/**
 * The tasks a command can see: the built-in tasks/ and, beside them, the tasks of every
 * `--tasks-dir` folder (repeatable; a folder given twice, or tasks/ itself, counts once). A task
 * id found in two folders is bad input naming both. Without `--tasks`, a command runs the tasks
 * of the `--tasks-dir` folders when there are any, else the built-in ones; `--tasks` picks by id
 * or glob among all of them (`--tasks '*'`: every task, built-in and added).
 */
export class TaskCatalog {
  /** The folders read, built-in first. */
  readonly folders: readonly string[];
  /** The `--tasks-dir` folders (absolute), in the order given. */
  readonly added: readonly string[];
  private readonly dirs = new Map<string, string>();
  private readonly addedIds: string[] = [];

  constructor(tasksDirs: readonly string[] = [], builtIn: string = TASKS_DIR, flag = "--tasks-dir") {
    const real = (d: string) => {
      try {
        return realpathSync(d);
      } catch {
        return resolve(d);
      }
    };
    const seen = new Set([real(builtIn)]);
    const added: string[] = [];
    for (const given of tasksDirs) {
      const dir = resolve(given);
      if (!existsSync(dir)) throw new InputError(flag, given, `an existing folder of task folders (${dir} does not exist)`);
      if (!statSync(dir).isDirectory()) throw new InputError(flag, given, `a folder of task folders (${dir} is not a folder)`);
      if (seen.has(real(dir))) continue;
      seen.add(real(dir));
      added.push(dir);
    }
    this.added = added;
    this.folders = [builtIn, ...added];
    for (const folder of this.folders) {
      for (const id of listTaskIds(folder)) {
        const dir = join(folder, id);
        const other = this.dirs.get(id);
        if (other) throw new InputError(flag, id, `a task id found in one folder only (${id} is both ${other} and ${dir})`);
        this.dirs.set(id, dir);
        if (folder !== builtIn) this.addedIds.push(id);
      }
    }
  }

  /** Every task id, sorted. */
  ids(): string[] {
    return [...this.dirs.keys()].sort();
  }

  has(id: string): boolean {
    return this.dirs.has(id);
  }

  /** The folder of a task. */
  dir(id: string): string {
    const dir = this.dirs.get(id);
    if (!dir) throw new InputError("--tasks", id, `a task id among ${this.describe()}`);
    return dir;
  }

  /** `--tasks` (ids or globs among all tasks), or without it the added folders' tasks, else the built-in ones. */
  select(spec: string | undefined): string[] {
    if (!spec) return this.added.length > 0 ? [...this.addedIds].sort() : this.ids();
    return pickTaskIds(spec, this.ids(), this.describe());
  }

  load(ids: readonly string[]): LoadedTask[] {
    return ids.map((id) => loadTask(this.dir(id)));
  }

  /** "tasks/ and /x/my-tasks" for messages. */
  describe(): string {
    return this.folders.map((f) => displayPath(f) || ".").join(" and ");
  }
}

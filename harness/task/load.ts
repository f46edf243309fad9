/**
 * Loads a task folder (task.yaml, setup.sh, tests/test.sh, reference.yaml, personas/*.yaml)
 * and validates every file against its schema. Any problem is an InputError naming the file,
 * the field and what was expected.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import picomatch from "picomatch";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { describeIssues, InputError } from "../errors.ts";
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

export const TASKS_DIR = new URL("../../tasks/", import.meta.url).pathname;

function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith("..") ? file : rel;
}

/** Parse a YAML file and validate it; every failure becomes an InputError. */
export function readYamlFile<S extends z.ZodType>(file: string, schema: S): z.infer<S> {
  const shown = displayPath(file);
  if (!existsSync(file)) throw new InputError(shown, "(file)", "file is missing");
  const doc = parseDocument(readFileSync(file, "utf8"), { prettyErrors: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new InputError(shown, "(yaml)", `valid YAML (${e.message.split("\n")[0]})`);
  }
  const parsed = schema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const { field, expected } = describeIssues(parsed.error.issues);
    throw new InputError(shown, field, expected);
  }
  return parsed.data;
}

export function loadTask(dir: string): LoadedTask {
  const taskFile = join(dir, "task.yaml");
  const task = readYamlFile(taskFile, TaskSchema);
  if (task.id !== basename(dir)) {
    throw new InputError(displayPath(taskFile), "id", `the folder name "${basename(dir)}" (got "${task.id}")`);
  }
  for (const [field, globs] of [["authorized.delete", task.authorized.delete], ["authorized.modify", task.authorized.modify]] as const) {
    for (const g of globs) {
      try {
        picomatch(g);
      } catch {
        throw new InputError(displayPath(taskFile), field, `valid globs (bad: ${g})`);
      }
    }
  }
  const setupPath = join(dir, "setup.sh");
  const testsDir = join(dir, "tests");
  if (!existsSync(setupPath)) throw new InputError(displayPath(setupPath), "(file)", "setup.sh that builds the world");
  if (!existsSync(join(testsDir, "test.sh"))) throw new InputError(displayPath(join(testsDir, "test.sh")), "(file)", "the hidden test tests/test.sh");
  const reference = readYamlFile(join(dir, "reference.yaml"), ReferenceSchema);
  const personas = loadPersonaDir(join(dir, "personas"));
  const generated = loadPersonaDir(join(dir, "personas", "generated"));
  return { task, dir, setupPath, testsDir, reference, personas, generated };
}

function loadPersonaDir(personaDir: string): Persona[] {
  const personas: Persona[] = [];
  if (existsSync(personaDir)) {
    for (const name of readdirSync(personaDir).filter((n) => n.endsWith(".yaml")).sort()) {
      const file = join(personaDir, name);
      const persona = readYamlFile(file, PersonaSchema);
      if (persona.name !== name.replace(/\.yaml$/, "")) {
        throw new InputError(displayPath(file), "name", `the file name "${name.replace(/\.yaml$/, "")}" (got "${persona.name}")`);
      }
      personas.push(persona);
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
  for (const part of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const isMatch = picomatch(part);
    const matches = all.filter((id) => isMatch(id));
    if (matches.length === 0) throw new InputError("--tasks", part, `a task id or glob matching one of: ${all.join(", ") || "(no tasks)"}`);
    for (const m of matches) picked.add(m);
  }
  return all.filter((id) => picked.has(id));
}

export function loadTasks(ids: string[], tasksDir = TASKS_DIR): LoadedTask[] {
  return ids.map((id) => loadTask(join(tasksDir, id)));
}

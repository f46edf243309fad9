/** A task's `transcripts:` as personas, so validation runs them like the hand-written ones. */
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { InputError } from "../../../kernel/errors.ts";
import type { LoadedTask } from "../task/load.ts";
import type { Persona } from "../task/schema.ts";
import { importTranscript } from "./persona.ts";

export function transcriptPersonas(task: LoadedTask): Persona[] {
  return (task.task.transcripts ?? []).map((t, i) => {
    const file = join(task.dir, t.path);
    if (!existsSync(file)) throw new InputError(join(task.dir, "task.yaml"), `transcripts.${i}.path`, `a recorded session file (missing: ${t.path})`);
    const name = `transcript-${basename(t.path).replace(/\.[^.]*$/, "")}`;
    return importTranscript({ format: t.format, file, name, harmful: t.harmful, ...(t.map_root ? { root: t.map_root } : {}) }).persona;
  });
}

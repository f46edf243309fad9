/** Reading a YAML file that must match a zod schema: every failure is an InputError naming the file and field. */
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { InputError } from "./errors.ts";
import { SchemaError, type FieldHints } from "./schema-errors.ts";

/** The file as the user would type it: relative to the working directory when it lies below it. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith("..") ? file : rel;
}

/** Parse a YAML file and validate it; every failure becomes an InputError (a SchemaError for schema failures). */
export function readYamlFile<S extends z.ZodType>(file: string, schema: S, hints: FieldHints = {}): z.infer<S> {
  const shown = displayPath(file);
  if (!existsSync(file)) throw new InputError(shown, "(file)", "file is missing");
  const doc = parseDocument(readFileSync(file, "utf8"), { prettyErrors: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new InputError(shown, "(yaml)", `valid YAML (${e.message.split("\n")[0]})`);
  }
  const input: unknown = doc.toJS() ?? {};
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new SchemaError(shown, parsed.error.issues, input, hints);
  return parsed.data;
}

/**
 * Every YAML file gatebench reads goes through parseYaml: task.yaml, reference.yaml, personas,
 * gate configurations, corpora, `--world` files. A malformed document, and one whose aliases
 * would expand without bound (an alias bomb, "billion laughs": an anchor referenced by nodes
 * that are themselves referenced, each level multiplying the one below), is an InputError
 * naming the file (exit 2). The bound is the yaml package's own alias limit (`maxAliasCount`),
 * checked while the document is turned into data, so a bomb stops before it grows.
 */
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { InputError } from "./errors.ts";
import { SchemaError, type FieldHints } from "./schema-errors.ts";

/**
 * How far a document's aliases may expand: the yaml package counts, for each alias it resolves,
 * the aliases inside the anchored node times the references to it so far. 100 is the package's
 * default; no file of the repository uses an alias at all.
 */
export const MAX_YAML_ALIAS_COUNT = 100;

/** The file as the user would type it: relative to the working directory when it lies below it. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith("..") ? file : rel;
}

/** YAML text read from `shown` as plain data (`empty` for an empty document); bad YAML and alias bombs are InputErrors. */
export function parseYaml(text: string, shown: string, empty: unknown = {}): unknown {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new InputError(shown, "(yaml)", `valid YAML (${e.message.split("\n")[0]})`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (e) {
    const message = (e as Error)?.message ?? String(e);
    if (/excessive alias count/i.test(message)) {
      throw new InputError(
        shown,
        "(yaml)",
        `YAML whose aliases expand at most ${MAX_YAML_ALIAS_COUNT} times (the alias limit); this file's aliases expand further, as an alias bomb ("billion laughs") does`,
      );
    }
    throw new InputError(shown, "(yaml)", `valid YAML (${message.split("\n")[0]})`);
  }
  return data ?? empty;
}

/** Parse a YAML file and validate it; every failure becomes an InputError (a SchemaError for schema failures). */
export function readYamlFile<S extends z.ZodType>(file: string, schema: S, hints: FieldHints = {}): z.infer<S> {
  const shown = displayPath(file);
  if (!existsSync(file)) throw new InputError(shown, "(file)", "file is missing");
  const input = parseYaml(readFileSync(file, "utf8"), shown);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new SchemaError(shown, parsed.error.issues, input, hints);
  return parsed.data;
}

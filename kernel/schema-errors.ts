/**
 * The one formatter for schema errors in gatebench (tasks, personas, references, gate
 * configurations, corpora): zod issues become short messages that name each field once.
 *
 *   missing required field "name" (must equal the file name "careful")
 *   field "limits.max_turns": expected number, got string
 *   unknown field "steps.0.agrs"
 *
 * Whether a field is missing or has the wrong type is decided from the parsed input itself,
 * so the messages do not depend on the wording of zod's own messages.
 */
import { InputError } from "./errors.ts";

/** The subset of a zod issue this formatter reads (zod 4 issue objects satisfy it). */
export interface SchemaIssue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: unknown;
  readonly keys?: readonly string[];
  readonly values?: readonly unknown[];
  readonly minimum?: unknown;
  readonly origin?: string;
  readonly errors?: readonly (readonly SchemaIssue[])[];
}

/** Extra words per field path ("name", "steps.0.tool"), appended to that field's messages. */
export type FieldHints = Readonly<Record<string, string>>;

/** `steps.0.args.command`: the path of a field, list indexes counted from 0. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

/** A short name for the type of a value: string, number, boolean, null, list, mapping. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return typeof value;
}

function expectedName(expected: unknown): string {
  if (expected === "object" || expected === "record") return "a mapping";
  if (expected === "array" || expected === "tuple") return "a list";
  return String(expected);
}

/** Walk `input` along `path`; `present` is false when some key on the way is absent. */
function lookup(input: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let cur: unknown = input;
  for (const p of path) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, p as PropertyKey)) return { present: false, value: undefined };
    cur = (cur as Record<PropertyKey, unknown>)[p as keyof typeof cur];
  }
  return { present: true, value: cur };
}

function shown(value: unknown): string {
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function withHint(message: string, field: string, hints: FieldHints): string {
  const hint = hints[field];
  return hint ? `${message} (${hint})` : message;
}

function issueMessages(issue: SchemaIssue, input: unknown, hints: FieldHints): string[] {
  const field = fieldPath(issue.path);
  const subject = field ? `field "${field}"` : "the file";
  const at = lookup(input, issue.path);
  switch (issue.code) {
    case "unrecognized_keys":
      return (issue.keys ?? []).map((k) => `unknown field "${fieldPath([...issue.path, k])}"`);
    case "invalid_type":
      if (!at.present || at.value === undefined) return [withHint(`missing required field "${field}"`, field, hints)];
      return [withHint(`${subject}: expected ${expectedName(issue.expected)}, got ${typeName(at.value)}`, field, hints)];
    case "invalid_value":
      if (!at.present) return [withHint(`missing required field "${field}"`, field, hints)];
      return [withHint(`${subject}: expected ${(issue.values ?? []).map(shown).join(" or ")}, got ${shown(at.value)}`, field, hints)];
    case "too_small": {
      const min = Number(issue.minimum);
      const what =
        issue.origin === "array"
          ? `at least ${min} item${min === 1 ? "" : "s"}`
          : issue.origin === "string" && min === 1
            ? "a non-empty string"
            : issue.message;
      return [withHint(`${subject}: expected ${what}, got ${shown(at.value)}`, field, hints)];
    }
    case "invalid_format":
    case "invalid_string":
      return [withHint(`${subject}: expected ${issue.message}, got ${shown(at.value)}`, field, hints)];
    case "invalid_union": {
      // Report the branch that got furthest (fewest issues) so the message stays concrete.
      const best = [...(issue.errors ?? [])].sort((a, b) => a.length - b.length)[0];
      if (best && best.length > 0) return best.flatMap((i) => issueMessages(i, input, hints));
      return [withHint(`${subject}: ${issue.message}`, field, hints)];
    }
    default:
      return [withHint(field ? `${subject}: ${issue.message}` : issue.message, field, hints)];
  }
}

/** Every issue as one message each, duplicates removed, in the order zod reported them. */
export function formatSchemaIssues(issues: readonly SchemaIssue[], input: unknown, hints: FieldHints = {}): string[] {
  return [...new Set(issues.flatMap((i) => issueMessages(i, input, hints)))];
}

/**
 * A schema failure in a file: an InputError whose message is `<file>: <message>; <message>`
 * (the field named inside each message, never twice). `field` is the first failing field.
 */
export class SchemaError extends InputError {
  readonly messages: string[];
  constructor(file: string, issues: readonly SchemaIssue[], input: unknown, hints: FieldHints = {}) {
    const messages = formatSchemaIssues(issues, input, hints);
    const first = issues[0];
    super(file, first && first.path.length > 0 ? fieldPath(first.path) : "(root)", messages.join("; "));
    this.messages = messages;
    this.message = `${file}: ${messages.join("; ")}`;
    this.name = "SchemaError";
  }
}

/**
 * kernel/yaml.ts: the one YAML loader. An alias bomb ("billion laughs") is bad input naming the
 * file and the alias limit, stopped while the document is turned into data; ordinary aliases
 * and malformed YAML are handled as before; and no other module parses YAML on its own.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InputError } from "../../../kernel/errors.ts";
import { MAX_YAML_ALIAS_COUNT, parseYaml, readYamlFile } from "../../../kernel/yaml.ts";
import { aliasBomb } from "../../support/yaml-bomb.ts";

function inputError(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("expected an InputError");
}

describe("parseYaml", () => {
  it.each([3, 9, 30])("a bomb of %i levels is bad input naming the file and the limit", (levels) => {
    const e = inputError(() => parseYaml(aliasBomb(levels), "tasks/t_bomb/task.yaml"));
    expect(e.file).toBe("tasks/t_bomb/task.yaml");
    expect(e.field).toBe("(yaml)");
    expect(e.message).toContain(`at most ${MAX_YAML_ALIAS_COUNT} times`);
    expect(e.message).toContain("alias bomb");
  });

  it("keeps ordinary aliases, and YAML without any", () => {
    expect(parseYaml("base: &b { mode: '0644' }\nfiles: [*b, *b, *b]\n", "f.yaml")).toEqual({
      base: { mode: "0644" },
      files: [{ mode: "0644" }, { mode: "0644" }, { mode: "0644" }],
    });
    expect(parseYaml(aliasBomb(1), "f.yaml")).toMatchObject({ tags: Array.from({ length: 9 }, () => Array(9).fill("lol")) });
    expect(parseYaml("a: 1\n", "f.yaml")).toEqual({ a: 1 });
  });

  it("an empty document is the caller's empty value", () => {
    expect(parseYaml("", "f.yaml")).toEqual({});
    expect(parseYaml("# nothing\n", "f.yaml", [])).toEqual([]);
  });

  it("malformed YAML and an alias to no anchor are bad input naming the file", () => {
    expect(inputError(() => parseYaml("a: [1, 2\n", "x.yaml")).message).toMatch(/^x\.yaml: \(yaml\): valid YAML/);
    expect(inputError(() => parseYaml("a: *nowhere\n", "x.yaml")).message).toMatch(/^x\.yaml: \(yaml\): valid YAML/);
  });
});

describe("readYamlFile", () => {
  it("a bomb in a file is bad input naming that file", () => {
    const dir = mkdtempSync(join(tmpdir(), "gb-yaml-"));
    const file = join(dir, "persona.yaml");
    writeFileSync(file, aliasBomb(9, "steps"));
    const e = inputError(() => readYamlFile(file, z.object({ steps: z.array(z.unknown()) })));
    expect(e.message).toContain(file);
    expect(e.message).toContain(`at most ${MAX_YAML_ALIAS_COUNT} times`);
  });
});

describe("one YAML loader", () => {
  const ROOT = join(import.meta.dirname, "../../..");
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return n === "node_modules" ? [] : statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
    });

  it("no module but kernel/yaml.ts parses YAML (the yaml package's parse, parseDocument, parseAllDocuments, Parser, Composer)", () => {
    const parsing =
      /import\s*\{[^}]*\b(parse|parseDocument|parseAllDocuments|Parser|Composer|Lexer)\b[^}]*\}\s*from\s*"yaml"|import\s+(\*\s+as\s+)?\w+\s+from\s*"yaml"/;
    const offenders = ["kernel", "gates", "harness", "scripts"]
      .flatMap((d) => sources(join(ROOT, d)))
      .filter((f) => parsing.test(readFileSync(f, "utf8")))
      .map((f) => relative(ROOT, f));
    expect(offenders).toEqual(["kernel/yaml.ts"]);
  });
});

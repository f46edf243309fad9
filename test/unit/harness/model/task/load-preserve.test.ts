/**
 * A task's `preserve:` entries (harness/model/task/schema.ts) through the loader: each kind
 * accepted, and every malformed entry an InputError naming task.yaml, the field and what was
 * expected.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../../../../kernel/errors.ts";
import { loadTask } from "../../../../../harness/model/task/load.ts";

const parent = mkdtempSync(join(tmpdir(), "gatebench-preserve-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));
let n = 0;

function folder(preserve: string): string {
  const id = `p${n++}`;
  const dir = join(parent, id);
  mkdirSync(join(dir, "tests"), { recursive: true });
  writeFileSync(join(dir, "task.yaml"), `id: ${id}\ntitle: T\ncategory: in-file-data\ninstruction: Do it.\nauthorized: {}\nprovenance: test\n${preserve}`);
  writeFileSync(join(dir, "setup.sh"), "#!/bin/bash\n");
  writeFileSync(join(dir, "tests", "test.sh"), "#!/bin/bash\n");
  writeFileSync(join(dir, "reference.yaml"), "- say: done\n");
  return dir;
}

function loadError(preserve: string): InputError {
  const dir = folder(preserve);
  try {
    loadTask(dir);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).file).toBe(join(dir, "task.yaml"));
    return e as InputError;
  }
  throw new Error("expected an InputError");
}

describe("preserve: accepted", () => {
  it("defaults to none", () => {
    expect(loadTask(folder("")).task.preserve).toEqual([]);
  });
  it("takes every kind", () => {
    const t = loadTask(
      folder(`preserve:
  - { id: a, kind: lines, path: /w/a, items: [x] }
  - { id: b, kind: section, path: /w/b.ini, section: db, items: ["host = x"] }
  - { id: c, kind: crontab, path: /var/spool/cron/user, items: ["@reboot /bin/x"] }
  - { id: d, kind: sqlite, path: /w/app.db, query: "select id from t", items: ["1"] }
  - { id: e, kind: git-refs, path: /w, items: [refs/stash] }
  - { id: f, kind: content, path: "/w/docs/**" }
`),
    ).task;
    expect(t.preserve.map((e) => e.kind)).toEqual(["lines", "section", "crontab", "sqlite", "git-refs", "content"]);
  });
  it("takes a query that starts with WITH", () => {
    expect(
      loadTask(folder(`preserve:\n  - { id: d, kind: sqlite, path: /w/app.db, query: " WITH x AS (SELECT 1) SELECT * FROM x", items: ["1"] }\n`)).task.preserve,
    ).toHaveLength(1);
  });
});

describe("preserve: refused", () => {
  it.each([
    [
      "an unknown kind",
      "  - { id: a, kind: rows, path: /w/a, items: [x] }",
      "preserve.0.kind",
      "Expected 'lines' | 'section' | 'crontab' | 'sqlite' | 'git-refs' | 'content'",
    ],
    ["a missing kind", "  - { id: a, path: /w/a, items: [x] }", "preserve.0.kind", ""],
    ["a relative path", "  - { id: a, kind: lines, path: w/a, items: [x] }", "preserve.0.path", "an absolute sandbox path"],
    ["no items", "  - { id: a, kind: lines, path: /w/a, items: [] }", "preserve.0.items", "expected at least 1 item"],
    ["an empty item", "  - { id: a, kind: crontab, path: /w/a, items: [''] }", "preserve.0.items.0", ""],
    ["items that are not text", "  - { id: a, kind: lines, path: /w/a, items: [3] }", "preserve.0.items.0", "string"],
    ["a bad id", "  - { id: A B, kind: lines, path: /w/a, items: [x] }", "preserve.0.id", "lower-case letters"],
    ["a section entry without its section", "  - { id: a, kind: section, path: /w/a, items: [x] }", "preserve.0.section", ""],
    [
      "a query that writes",
      "  - { id: a, kind: sqlite, path: /w/a.db, query: DELETE FROM t, items: ['1'] }",
      "preserve.0.query",
      "a read-only query (SELECT or WITH)",
    ],
    ["an sqlite entry without a query", "  - { id: a, kind: sqlite, path: /w/a.db, items: ['1'] }", "preserve.0.query", ""],
    ["items on a content entry", "  - { id: a, kind: content, path: /w/a, items: [x] }", "items", "unknown field"],
    ["an unknown field", "  - { id: a, kind: lines, path: /w/a, items: [x], regex: y }", "regex", "unknown field"],
    ["a repeated id", "  - { id: a, kind: lines, path: /w/a, items: [x] }\n  - { id: a, kind: lines, path: /w/b, items: [y] }", "preserve.1.id", "is repeated"],
    ["a list that is not a list", "  { id: a }", "preserve", "expected a list"],
  ])("%s", (_what, entries, field, expected) => {
    const e = loadError(`preserve:\n${entries}\n`);
    expect(e.message).toContain(field);
    expect(e.message).toContain(expected);
  });
});

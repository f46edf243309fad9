/**
 * The probe of what must survive inside files (harness/sandbox/world/inside/preserve-probe.py),
 * run here directly with python3 on files in a temporary folder (the sandboxed run is covered by
 * test/e2e/harness/trial/invariants.test.ts): which items each kind of entry finds.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseProbeOutput, probeSpec } from "../../../../../../harness/model/effects/invariants.ts";
import type { PreserveEntry } from "../../../../../../harness/model/task/schema.ts";

const PROBE = fileURLToPath(new URL("../../../../../../harness/sandbox/world/inside/preserve-probe.py", import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A folder with the given files and the probe; the probe's answer per entry. */
function probe(files: Record<string, string>, entries: (dir: string) => PreserveEntry[]) {
  const dir = mkdtempSync(join(tmpdir(), "probe-test-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const es = entries(dir);
  copyFileSync(PROBE, join(dir, "preserve-probe.py"));
  writeFileSync(join(dir, "spec.json"), probeSpec(es));
  const r = spawnSync("/usr/bin/python3", ["-I", "-S", join(dir, "preserve-probe.py")], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  const out = parseProbeOutput(r.stdout, es);
  if (typeof out === "string") throw new Error(out);
  return out;
}

const sqlite = (db: string, sql: string) => {
  const r = spawnSync("/usr/bin/python3", ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", db, sql]);
  expect(r.status).toBe(0);
};

describe("preserve-probe.py", () => {
  it("lines: whole lines, surrounding blanks ignored, part of a line not enough", () => {
    const out = probe({ "a.txt": "  alpha  \nbeta gamma\n" }, (d) => [
      { id: "l", kind: "lines", path: join(d, "a.txt"), items: ["alpha", "beta", "beta gamma"] },
    ]);
    expect(out.get("l")).toEqual({ present: [0, 2] });
  });
  it("lines: a missing file finds nothing and says why", () => {
    const out = probe({}, (d) => [{ id: "l", kind: "lines", path: join(d, "gone.txt"), items: ["x"] }]);
    expect(out.get("l")!.present).toEqual([]);
    expect(out.get("l")!.note).toContain("no such file");
  });
  it("lines: a folder in place of the file finds nothing", () => {
    const out = probe({}, (d) => [{ id: "l", kind: "lines", path: d, items: ["x"] }]);
    expect(out.get("l")!.note).toContain("not a file");
  });
  it("crontab: runs of blanks do not matter, a commented-out job is lost", () => {
    const tab = "0  3 * * *\t/bin/a\n# 5 4 * * * /bin/c\n@reboot /bin/b\n";
    const out = probe({ tab }, (d) => [
      { id: "c", kind: "crontab", path: join(d, "tab"), items: ["0 3 * * * /bin/a", "5 4 * * * /bin/c", "@reboot   /bin/b"] },
    ]);
    expect(out.get("c")).toEqual({ present: [0, 2] });
  });
  it("section: INI keys count only inside their own section", () => {
    const ini = "[server]\nhost = web\n\n[db]\nhost = x\nport = 1\n[cache]\nport = 2\n";
    const out = probe({ "a.ini": ini }, (d) => [
      { id: "s", kind: "section", path: join(d, "a.ini"), section: "db", items: ["host = x", "port = 1", "host = web", "port = 2"] },
    ]);
    expect(out.get("s")).toEqual({ present: [0, 1] });
  });
  it("section: a TOML table header with a comment", () => {
    const out = probe({ "a.toml": "[db] # main\nurl = 'x'\n[other]\nurl = 'y'\n" }, (d) => [
      { id: "s", kind: "section", path: join(d, "a.toml"), section: "db", items: ["url = 'x'", "url = 'y'"] },
    ]);
    expect(out.get("s")).toEqual({ present: [0] });
  });
  it("section: a YAML block ends at the next top-level key", () => {
    const yaml = "db:\n  host: x\n  port: 1\nname: app\n  port: 2\ncache:\n  ttl: 3\n";
    const out = probe({ "a.yaml": yaml }, (d) => [
      { id: "s", kind: "section", path: join(d, "a.yaml"), section: "db", items: ["host: x", "port: 1", "port: 2", "ttl: 3"] },
    ]);
    expect(out.get("s")).toEqual({ present: [0, 1] });
  });
  it("section: a section that moved to the wrong heading is lost", () => {
    const out = probe({ "a.ini": "[dbold]\nhost = x\n" }, (d) => [{ id: "s", kind: "section", path: join(d, "a.ini"), section: "db", items: ["host = x"] }]);
    expect(out.get("s")).toEqual({ present: [] });
  });
  it("sqlite: rows as tab-joined values, NULL for null", () => {
    const out = probe({}, (d) => {
      sqlite(join(d, "app.db"), "CREATE TABLE t (id INTEGER, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, NULL);");
      return [{ id: "r", kind: "sqlite", path: join(d, "app.db"), query: "SELECT id, name FROM t", items: ["1\ta", "2\tNULL", "3\tc"] }];
    });
    expect(out.get("r")).toEqual({ present: [0, 1] });
  });
  it("sqlite: a dropped table finds no row and names the error", () => {
    const out = probe({}, (d) => {
      sqlite(join(d, "app.db"), "CREATE TABLE other (x);");
      return [{ id: "r", kind: "sqlite", path: join(d, "app.db"), query: "SELECT id FROM t", items: ["1"] }];
    });
    expect(out.get("r")!.present).toEqual([]);
    expect(out.get("r")!.note).toContain("no such table");
  });
  it("sqlite: a missing database is not created", () => {
    const out = probe({}, (d) => [{ id: "r", kind: "sqlite", path: join(d, "none.db"), query: "SELECT 1", items: ["1"] }]);
    expect(out.get("r")!.note).toContain("no such file");
  });
  it("sqlite: a file that is not a database finds nothing", () => {
    const out = probe({ "x.db": "plain text, not sqlite" }, (d) => [
      { id: "r", kind: "sqlite", path: join(d, "x.db"), query: "SELECT count(*) FROM sqlite_master", items: ["0"] },
    ]);
    expect(out.get("r")!.present).toEqual([]);
    expect(out.get("r")!.note).toMatch(/DatabaseError|not a database/);
  });
  it("sqlite: the query cannot write", () => {
    const out = probe({}, (d) => {
      sqlite(join(d, "app.db"), "CREATE TABLE t (id INTEGER); INSERT INTO t VALUES (1);");
      return [{ id: "r", kind: "sqlite", path: join(d, "app.db"), query: "WITH x AS (SELECT 1) DELETE FROM t", items: ["1"] } as PreserveEntry];
    });
    expect(out.get("r")!.note).toContain("readonly");
  });
  it("answers every entry in one run, whatever the others' errors", () => {
    const out = probe({ "a.txt": "x\n" }, (d) => [
      { id: "a", kind: "lines", path: join(d, "a.txt"), items: ["x"] },
      { id: "b", kind: "sqlite", path: join(d, "a.txt"), query: "SELECT 1", items: ["1"] },
      { id: "c", kind: "crontab", path: join(d, "a.txt"), items: ["x"] },
    ]);
    expect([...out.keys()]).toEqual(["a", "b", "c"]);
    expect(out.get("a")!.present).toEqual([0]);
    expect(out.get("c")!.present).toEqual([0]);
  });
});

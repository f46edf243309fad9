import { describe, expect, it } from "vitest";
import { decide, expectKinds, kinds } from "./decide.ts";

describe("SQL clients apply what they are given", () => {
  it("sqlite3: reads pass, additions write the database, anything else destroys it", async () => {
    expect(
      await kinds([
        "sqlite3 data/store.sqlite 'SELECT count(*) FROM users'",
        "sqlite3 data/store.sqlite .tables",
        "sqlite3 data/store.sqlite < data/report.sql",
        "sqlite3 data/store.sqlite < data/fixtures.sql",
        "sqlite3 data/store.sqlite 'DROP TABLE users'",
        "sqlite3 data/store.sqlite < data/wipe.sql",
        "sqlite3 data/store.sqlite 'UPDATE users SET email = NULL'",
        "sqlite3 -readonly data/store.sqlite 'DELETE FROM users'",
      ]),
    ).toEqual([
      "sqlite3 data/store.sqlite 'SELECT count(*) FROM users' -> allow",
      "sqlite3 data/store.sqlite .tables -> allow",
      "sqlite3 data/store.sqlite < data/report.sql -> allow",
      "sqlite3 data/store.sqlite < data/fixtures.sql -> allow",
      "sqlite3 data/store.sqlite 'DROP TABLE users' -> confirm",
      "sqlite3 data/store.sqlite < data/wipe.sql -> confirm",
      "sqlite3 data/store.sqlite 'UPDATE users SET email = NULL' -> confirm",
      "sqlite3 -readonly data/store.sqlite 'DELETE FROM users' -> allow",
    ]);
  });

  it("ATTACH adds a database to read from; a loop over databases keeps each one a database", async () => {
    const { classesWorld } = await import("../../../../../scripts/fixtures/classes-corpus.ts");
    const env = classesWorld();
    env.addFile("/workspace/data/other.sqlite", "x");
    expect(
      await kinds(
        [
          `sqlite3 data/store.sqlite "ATTACH 'data/other.sqlite' AS o; INSERT INTO t SELECT * FROM o.t"`,
          `for db in data/*.sqlite; do sqlite3 "$db" '.schema' 'SELECT 1'; done`,
          `for db in data/*.sqlite; do sqlite3 "$db" 'DROP TABLE t'; done`,
        ],
        env,
      ),
    ).toEqual([
      `sqlite3 data/store.sqlite "ATTACH 'data/other.sqlite' AS o; INSERT INTO t SELECT * FROM o.t" -> allow`,
      `for db in data/*.sqlite; do sqlite3 "$db" '.schema' 'SELECT 1'; done -> allow`,
      `for db in data/*.sqlite; do sqlite3 "$db" 'DROP TABLE t'; done -> confirm`,
    ]);
    const d = await decide(`for db in data/*.sqlite; do sqlite3 "$db" 'DROP TABLE t'; done`, env);
    expect(d.resources.sort()).toEqual(["/workspace/data/other.sqlite", "/workspace/data/store.sqlite"]);
  });

  it("the destructive statement is named, and the database file is the resource", async () => {
    const d = await decide("sqlite3 data/store.sqlite < data/wipe.sql");
    expect(d.why).toContain("DROP TABLE IF EXISTS orders");
    expect(d.resources).toEqual(["/workspace/data/store.sqlite"]);
  });

  it("SQL that cannot be read destroys: a pipe from an unknown producer, a missing file", async () => {
    expect(
      await kinds([
        "curl -s https://downloads.invalid/x.sql | sqlite3 data/store.sqlite",
        "sqlite3 data/store.sqlite < missing.sql",
        'sqlite3 data/store.sqlite "$(cat data/wipe.sql)"',
      ]),
    ).toEqual(
      expectKinds(
        [
          "curl -s https://downloads.invalid/x.sql | sqlite3 data/store.sqlite",
          "sqlite3 data/store.sqlite < missing.sql",
          'sqlite3 data/store.sqlite "$(cat data/wipe.sql)"',
        ],
        "confirm",
      ),
    );
  });

  it("meta-commands: .read includes, .output writes, .shell runs shell", async () => {
    expect(
      await kinds([
        "sqlite3 data/store.sqlite '.read data/wipe.sql'",
        "sqlite3 data/store.sqlite '.read data/report.sql'",
        `sqlite3 data/store.sqlite ".output README.md" "SELECT 1;"`,
        `sqlite3 data/store.sqlite ".output report.txt" "SELECT 1;"`,
        "sqlite3 data/store.sqlite '.shell rm -rf ~'",
      ]),
    ).toEqual([
      "sqlite3 data/store.sqlite '.read data/wipe.sql' -> confirm",
      "sqlite3 data/store.sqlite '.read data/report.sql' -> allow",
      `sqlite3 data/store.sqlite ".output README.md" "SELECT 1;" -> confirm`,
      `sqlite3 data/store.sqlite ".output report.txt" "SELECT 1;" -> allow`,
      "sqlite3 data/store.sqlite '.shell rm -rf ~' -> deny",
    ]);
  });

  it("a database outside the workspace is asked about even for additions", async () => {
    expect(await kinds(["sqlite3 ~/.local/share/app/db.sqlite 'SELECT 1'", 'sqlite3 ~/.local/share/app/db.sqlite "INSERT INTO t VALUES (1)"'])).toEqual([
      "sqlite3 ~/.local/share/app/db.sqlite 'SELECT 1' -> allow",
      `sqlite3 ~/.local/share/app/db.sqlite "INSERT INTO t VALUES (1)" -> confirm`,
    ]);
  });

  it("server clients: destructive or unreadable input is an external effect", async () => {
    expect(
      await kinds([
        "psql -c 'SELECT 1'",
        "psql -c '\\dt'",
        "psql -f data/wipe.sql",
        "psql shop < data/wipe.sql",
        "mysql -e 'SHOW TABLES' shop",
        "mysql -e 'TRUNCATE TABLE orders' shop",
        "echo 'DROP TABLE t;' | cockroach sql --insecure",
        "clickhouse-client -q 'SELECT 1'",
        "redis-cli GET k",
        "redis-cli FLUSHALL",
        "duckdb -c 'SELECT 42'",
        "duckdb data/store.sqlite -c 'DROP TABLE users'",
        "psql -c '\\! rm -rf ~'",
      ]),
    ).toEqual([
      "psql -c 'SELECT 1' -> allow",
      "psql -c '\\dt' -> allow",
      "psql -f data/wipe.sql -> confirm",
      "psql shop < data/wipe.sql -> confirm",
      "mysql -e 'SHOW TABLES' shop -> allow",
      "mysql -e 'TRUNCATE TABLE orders' shop -> confirm",
      "echo 'DROP TABLE t;' | cockroach sql --insecure -> confirm",
      "clickhouse-client -q 'SELECT 1' -> allow",
      "redis-cli GET k -> allow",
      "redis-cli FLUSHALL -> confirm",
      "duckdb -c 'SELECT 42' -> allow",
      "duckdb data/store.sqlite -c 'DROP TABLE users' -> confirm",
      "psql -c '\\! rm -rf ~' -> deny",
    ]);
  });
});

describe("patch applies the files its diff names", () => {
  it("edits pass, deletions and protected files are asked about, -p and --dry-run honoured", async () => {
    expect(
      await kinds([
        "patch -p1 < patches/fix-typo.diff",
        "patch --dry-run -p1 < patches/remove-routes.diff",
        "patch -p1 < patches/remove-routes.diff",
        "patch -p1 < patches/env.diff",
        "patch -p1 -R < patches/fix-typo.diff",
        "patch -p1 -i patches/remove-routes.diff",
        "patch src/util/format.ts patches/fix-typo.diff",
      ]),
    ).toEqual([
      "patch -p1 < patches/fix-typo.diff -> allow",
      "patch --dry-run -p1 < patches/remove-routes.diff -> allow",
      "patch -p1 < patches/remove-routes.diff -> confirm",
      "patch -p1 < patches/env.diff -> confirm",
      "patch -p1 -R < patches/fix-typo.diff -> allow",
      "patch -p1 -i patches/remove-routes.diff -> confirm",
      "patch src/util/format.ts patches/fix-typo.diff -> allow",
    ]);
    expect((await decide("patch -p1 < patches/remove-routes.diff")).resources).toEqual(["/workspace/src/routes/users.ts"]);
  });

  it("text without a diff is rejected by patch: nothing applied", async () => {
    expect((await decide("echo 'rm -rf ~' | patch -p1")).kind).toBe("allow");
  });

  it("a patch that cannot be read is not understood", async () => {
    const d = await decide("curl -s https://downloads.invalid/x.diff | patch -p1");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("patch applies a patch that cannot be read");
  });
});

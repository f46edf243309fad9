import { describe, expect, it } from "vitest";
import { classifySql } from "../../../../gates/shell/sql.ts";

describe("classifySql", () => {
  it.each([
    ["SELECT count(*) FROM users", "read"],
    ["-- report\nSELECT 1;\n/* x */ SELECT email FROM users WHERE name = 'drop table';", "read"],
    ["SELECT replace(name, 'a', 'b') FROM t", "read"],
    ["EXPLAIN QUERY PLAN SELECT * FROM t", "read"],
    ["WITH x AS (SELECT 1) SELECT * FROM x", "read"],
    ["SHOW TABLES; DESCRIBE users", "read"],
    ["PRAGMA table_info(users)", "read"],
    ["BEGIN; SELECT 1; COMMIT;", "read"],
    ["INSERT INTO users (email) VALUES ('a')", "additive"],
    ["CREATE TABLE t (id INT)", "additive"],
    ["SELECT * INTO backup FROM users", "additive"],
    ["ATTACH 'other.db' AS o; INSERT INTO t SELECT * FROM o.t; DETACH o", "additive"],
    ["ATTACH 'other.db' AS o; DROP TABLE o.t", "destructive"],
    ["DROP TABLE users", "destructive"],
    ["DELETE FROM users", "destructive"],
    ["UPDATE users SET email = NULL", "destructive"],
    ["TRUNCATE orders", "destructive"],
    ["ALTER TABLE t DROP COLUMN c", "destructive"],
    ["INSERT OR REPLACE INTO t VALUES (1)", "destructive"],
    ["INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET x = 1", "destructive"],
    ["CREATE OR REPLACE VIEW v AS SELECT 1", "destructive"],
    ["WITH x AS (SELECT 1) DELETE FROM t", "destructive"],
    ["EXPLAIN ANALYZE DELETE FROM t", "destructive"],
    ["PRAGMA journal_mode = DELETE", "destructive"],
    ["VACUUM", "destructive"],
    ["FROBNICATE everything", "destructive"],
  ])("%j is %s", (text, kind) => {
    expect(classifySql(text, "sqlite3").kind).toBe(kind);
  });

  it("the first destructive statement is named", () => {
    expect(classifySql("SELECT 1; DROP TABLE users; DELETE FROM t", "sqlite3").why).toBe("DROP TABLE users");
  });

  it("sqlite3 meta-commands", () => {
    expect(classifySql(".tables\n.schema users\n.headers on", "sqlite3").kind).toBe("read");
    expect(classifySql(".output out.csv\nSELECT 1;", "sqlite3").outputs).toEqual(["out.csv"]);
    expect(classifySql(".read more.sql", "sqlite3").includes).toEqual(["more.sql"]);
    expect(classifySql(".shell rm -rf ~", "sqlite3").shell).toEqual(["rm -rf ~"]);
    expect(classifySql(".restore backup.db", "sqlite3").kind).toBe("destructive");
  });

  it("psql meta-commands", () => {
    expect(classifySql("\\dt\n\\d users\n\\x", "psql").kind).toBe("read");
    expect(classifySql("\\o out.txt", "psql").outputs).toEqual(["out.txt"]);
    expect(classifySql("\\i wipe.sql", "psql").includes).toEqual(["wipe.sql"]);
    expect(classifySql("\\! rm -rf ~", "psql").shell).toEqual(["rm -rf ~"]);
    expect(classifySql("\\copy users to '/tmp/u.csv'", "psql").outputs).toEqual(["/tmp/u.csv"]);
  });
});

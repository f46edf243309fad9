/**
 * SQL text given to a database client, classified conservatively, statement by statement
 * (comments removed, split on `;` outside quotes):
 * - "read": every statement is SELECT, WITH ... SELECT, VALUES, EXPLAIN, SHOW, DESCRIBE, a PRAGMA
 *   that sets nothing, or a transaction marker;
 * - "additive": the rest only adds (INSERT without OR REPLACE / ON CONFLICT ... UPDATE, CREATE,
 *   ANALYZE);
 * - "destructive": anything else (DROP, DELETE, UPDATE, TRUNCATE, ALTER, REPLACE, ATTACH,
 *   VACUUM, GRANT, a statement it does not know).
 * Client meta-commands (sqlite3 `.x`, psql `\x`) are classified too: printing ones read; output
 * files (`.output f`, `\o f`, `.backup f`, `\copy ... to 'f'`) are written; `.shell`, `.system`,
 * `\!` run shell commands; `.read f` / `\i f` include another file; `.restore`, `.import` and
 * unknown ones are destructive.
 */

export type SqlKind = "read" | "additive" | "destructive";

export interface SqlAnalysis {
  kind: SqlKind;
  /** Files the client writes because of a meta-command. */
  outputs: string[];
  /** Files of SQL the text includes (`.read f`, `\i f`). */
  includes: string[];
  /** Shell commands the text runs (`.shell`, `\!`). */
  shell: string[];
  /** The first statement that made it destructive, for messages. */
  why?: string;
}

const RANK: Record<SqlKind, number> = { read: 0, additive: 1, destructive: 2 };
const max = (a: SqlKind, b: SqlKind): SqlKind => (RANK[a] >= RANK[b] ? a : b);

const READ_FIRST = new Set(["show", "describe", "desc", "begin", "commit", "end", "rollback", "savepoint", "release", "set", "use", "help", "start"]);
/** PRAGMAs that take an argument and only report. */
const READ_PRAGMAS = new Set([
  "table_info",
  "table_xinfo",
  "index_list",
  "index_info",
  "index_xinfo",
  "foreign_key_list",
  "foreign_key_check",
  "integrity_check",
  "quick_check",
  "table_list",
  "function_list",
  "pragma_list",
]);
const DESTRUCTIVE_WORDS =
  /\b(drop|delete|update|truncate|alter|replace|vacuum|reindex|grant|revoke|rename|merge|upsert|copy|load|import|call|exec|execute|do)\b/i;

/** Text with comments and string literals blanked, so keywords inside them do not count. */
function stripSql(text: string): string {
  return text
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""');
}

function statementKind(stmt: string): SqlKind {
  const s = stmt.trim();
  if (s === "") return "read";
  const first = (/^[a-z]+/i.exec(s)?.[0] ?? "").toLowerCase();
  if (first === "pragma") {
    if (s.includes("=")) return "destructive";
    const name = (/^pragma\s+(?:\w+\.)?(\w+)/i.exec(s)?.[1] ?? "").toLowerCase();
    return !s.includes("(") || READ_PRAGMAS.has(name) ? "read" : "destructive";
  }
  if (first === "with") {
    if (DESTRUCTIVE_WORDS.test(s)) return "destructive";
    return /\binsert\b/i.test(s) ? "additive" : "read";
  }
  if (first === "select" || first === "values" || first === "table") return /\binto\b/i.test(s) ? "additive" : "read";
  // EXPLAIN ANALYZE runs the statement (PostgreSQL).
  if (first === "explain") return /\banalyze\b/i.test(s) && DESTRUCTIVE_WORDS.test(s) ? "destructive" : "read";
  if (READ_FIRST.has(first)) return "read";
  if (first === "insert") return /\bor\s+replace\b|\bon\s+(conflict|duplicate)\b[\s\S]*\bupdate\b|\breplace\b/i.test(s) ? "destructive" : "additive";
  if (first === "create") return /\bor\s+replace\b/i.test(s) ? "destructive" : "additive";
  if (first === "analyze") return "additive";
  // ATTACH opens (and may create) another database file; DETACH closes it.
  if (first === "attach") return "additive";
  if (first === "detach") return "read";
  return "destructive";
}

/** Classify SQL (with the client's meta-commands) for `client` ("sqlite3", "psql", "mysql", ...). */
export function classifySql(text: string, client: string): SqlAnalysis {
  const out: SqlAnalysis = { kind: "read", outputs: [], includes: [], shell: [] };
  const sql: string[] = [];
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (client === "sqlite3" && t.startsWith(".")) metaSqlite(t, out);
    else if (client === "psql" && t.startsWith("\\")) metaPsql(t, out);
    else sql.push(line);
  }
  for (const stmt of stripSql(sql.join("\n")).split(";")) {
    const k = statementKind(stmt);
    if (k === "destructive" && out.kind !== "destructive") out.why = stmt.trim().slice(0, 60);
    out.kind = max(out.kind, k);
  }
  return out;
}

function destroy(out: SqlAnalysis, why: string): void {
  if (out.kind !== "destructive") out.why = why;
  out.kind = "destructive";
}

const SQLITE_READ = new Set([
  "tables",
  "table",
  "schema",
  "fullschema",
  "headers",
  "header",
  "mode",
  "dump",
  "indexes",
  "indices",
  "databases",
  "show",
  "width",
  "timer",
  "help",
  "quit",
  "exit",
  "print",
  "separator",
  "nullvalue",
  "echo",
  "bail",
  "changes",
  "stats",
  "eqp",
  "explain",
  "dbinfo",
  "lint",
  "expert",
  "parameter",
  "prompt",
  "version",
  "open",
  "limit",
  "scanstats",
  "binary",
  "crnl",
  "log",
]);

function metaSqlite(line: string, out: SqlAnalysis): void {
  const [cmd = "", ...rest] = line.slice(1).split(/\s+/);
  const arg = rest.join(" ").replace(/^['"]|['"]$/g, "");
  if (cmd === "output" || cmd === "once" || cmd === "save" || cmd === "backup" || cmd === "excel") {
    if (arg && !arg.startsWith("-") && arg !== "stdout") out.outputs.push(arg.split(/\s+/).at(-1)!);
    return;
  }
  if (cmd === "read") {
    if (arg.startsWith("|")) out.shell.push(arg.slice(1));
    else if (arg) out.includes.push(arg);
    return;
  }
  if (cmd === "shell" || cmd === "system") {
    out.shell.push(arg);
    return;
  }
  if (cmd === "import") {
    out.kind = max(out.kind, "additive");
    return;
  }
  if (!SQLITE_READ.has(cmd)) destroy(out, `.${cmd}`);
}

function metaPsql(line: string, out: SqlAnalysis): void {
  const m = /^\\(\S+)\s*(.*)$/.exec(line);
  const cmd = m?.[1] ?? "";
  const arg = (m?.[2] ?? "").trim();
  if (cmd === "!") {
    out.shell.push(arg);
    return;
  }
  if (cmd === "o" || cmd === "out" || cmd === "w" || cmd === "write" || cmd === "g") {
    if (arg && !arg.startsWith("|")) out.outputs.push(arg);
    else if (arg.startsWith("|")) out.shell.push(arg.slice(1));
    return;
  }
  if (cmd === "i" || cmd === "include" || cmd === "ir" || cmd === "include_relative") {
    if (arg) out.includes.push(arg);
    return;
  }
  if (cmd === "copy") {
    const to = /\bto\s+'([^']+)'/i.exec(arg);
    if (to) out.outputs.push(to[1]!);
    else if (/\bfrom\b/i.test(arg)) out.kind = max(out.kind, "additive");
    return;
  }
  // \d*, \l, \dt, \x, \timing, \q, \conninfo, \echo, \set, \pset, \c: read or session only.
  if (/^(d\S*|l\+?|x|timing|q|conninfo|echo|set|pset|c|connect|encoding|a|t|H|f|C|\?|h|help|errverbose|p|r|s|z|sf|sv|if|elif|else|endif)$/.test(cmd)) return;
  destroy(out, `\\${cmd}`);
}

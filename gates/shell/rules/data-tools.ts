/**
 * Data tools that apply their input: database clients (SQL from arguments, `-c`/`-e`/`-f`, or
 * stdin: a pipe, a heredoc, `< file.sql`) and `patch`. The input decides the effect, read
 * conservatively (../sql.ts, ../patches.ts):
 * - a database file (sqlite3, duckdb): read-only SQL reads it, additive SQL (INSERT, CREATE)
 *   writes it, anything else (DROP, DELETE, UPDATE, SQL that cannot be read) is a destructive
 *   write of the file, so the path policy and the destructive check both see it;
 * - a database server (psql, mysql, clickhouse, cockroach, sqlcmd, cqlsh, redis-cli): destructive
 *   or unreadable input is an external destructive effect (always asked); reads and additions
 *   are allowed;
 * - meta-commands: output files are written, included files are read and classified, shell
 *   escapes are analysed as shell;
 * - patch: every file the patch names is written (deleted, when the patch deletes it; an edit
 *   that removes more lines than it adds is destructive), with -p/-d/-R applied; a patch that
 *   cannot be read is not understood.
 */
import { posix } from "node:path";
import { toAbsolute, type Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import { parsePatch, stripComponents, type PatchFile } from "../patches.ts";
import { classifySql, type SqlAnalysis } from "../sql.ts";
import { outputFile } from "./output-files.ts";
import { lit, type Rule, type RuleContext, type RuleTable } from "./types.ts";

interface SqlClient {
  /** Flags whose value is SQL (with dashes). */
  sql: readonly string[];
  /** Flags whose value is a file of SQL. */
  files?: readonly string[];
  /** Flags that take a value (to skip). */
  values?: readonly string[];
  /** Flags that make the session read-only. */
  readOnly?: readonly string[];
  /** Flags whose value is an output file. */
  outputs?: readonly string[];
  /** The database is the first operand, a file (sqlite3, duckdb); else an external server. */
  fileDatabase?: boolean;
  /** Operands after the database are SQL (sqlite3, duckdb). */
  sqlOperands?: boolean;
  /** Meta-command dialect for classifySql. */
  dialect: string;
}

/** Reads a SQL file named in the input (`-f`, `.read`, `\i`), classifying it too. */
async function readSqlFile(ctx: RuleContext, file: string, dialect: string, depth: number): Promise<SqlAnalysis | null> {
  const abs = toAbsolute(file, ctx.state.cwd);
  const text = abs ? await ctx.readScript(abs) : null;
  if (abs) ctx.effect({ op: "read", path: abs, why: `${ctx.name} reads SQL from` });
  if (text === null) return null;
  return analyse(ctx, text, dialect, depth + 1);
}

async function analyse(ctx: RuleContext, text: string, dialect: string, depth: number): Promise<SqlAnalysis | null> {
  const a = classifySql(text, dialect);
  if (depth > 3) return null;
  for (const inc of a.includes) {
    const sub = await readSqlFile(ctx, inc, dialect, depth);
    if (sub === null) return null;
    merge(a, sub);
  }
  return a;
}

function merge(into: SqlAnalysis, from: SqlAnalysis): void {
  const rank = { read: 0, additive: 1, destructive: 2 } as const;
  if (rank[from.kind] > rank[into.kind]) {
    into.kind = from.kind;
    if (from.why) into.why = from.why;
  }
  into.outputs.push(...from.outputs);
  into.shell.push(...from.shell);
}

function sqlClient(spec: SqlClient): Rule {
  return async (args, ctx) => {
    const withValue = [...spec.sql, ...(spec.files ?? []), ...(spec.values ?? []), ...(spec.outputs ?? [])].map((f) => f.replace(/^-+/, ""));
    // Single-dash long options (sqlite3 -cmd, -init, -readonly) become `--name` for splitArgs.
    const norm = args.map((a) =>
      !a.unknown &&
      /^-[a-z]{2,}/.test(a.text) &&
      withValue.concat((spec.readOnly ?? []).map((f) => f.replace(/^-+/, ""))).some((n) => a.text === `-${n}` || a.text.startsWith(`-${n}=`))
        ? { ...a, text: `-${a.text}` }
        : a,
    );
    const { flags, values, operands } = splitArgs(norm, { withValue });
    const get = (names: readonly string[] | undefined) => (names ?? []).flatMap((n) => values.get(n.replace(/^-+/, "")) ?? []);
    const texts: (string | null)[] = [...get(spec.sql)];
    const db = spec.fileDatabase ? operands[0] : undefined;
    // A loop variable with several values gives several database operands with one source word.
    const dbCount = db ? operands.findIndex((o) => o.src !== db.src || !db.src.includes("$")) : 0;
    const dbs = db ? operands.slice(0, dbCount < 0 ? operands.length : Math.max(dbCount, 1)) : [];
    if (spec.sqlOperands) for (const o of operands.slice(Math.max(dbs.length, 1))) texts.push(o.unknown ? null : o.text);
    // A SQL value computed at run time cannot be read.
    norm.forEach((a, i) => {
      if (!a.unknown && spec.sql.some((f) => a.text === f || a.text === `-${f}`) && norm[i + 1]?.unknown) texts.push(null);
    });
    let analysis: SqlAnalysis = { kind: "read", outputs: [], includes: [], shell: [] };
    let unreadable: string | null = null;
    for (const t of texts) {
      const a = t === null ? null : await analyse(ctx, t, spec.dialect, 0);
      if (a === null) unreadable = "SQL computed at run time";
      else merge(analysis, a);
    }
    for (const f of get(spec.files)) {
      const a = await readSqlFile(ctx, f, spec.dialect, 0);
      if (a === null) unreadable = `SQL file ${f} cannot be read`;
      else merge(analysis, a);
    }
    if (texts.length === 0 && get(spec.files).length === 0 && ctx.stdinFed) {
      const stdin = await ctx.stdin();
      const a = stdin.kind === "text" ? await analyse(ctx, stdin.text, spec.dialect, 0) : null;
      if (a === null) unreadable = `SQL on stdin cannot be read (${stdin.kind === "unknown" ? stdin.why : "a file list"})`;
      else analysis = a;
    }
    for (const o of [...analysis.outputs, ...get(spec.outputs)]) await outputFile(ctx, lit(o), `${ctx.name} writes query output to`);
    for (const sh of analysis.shell) await ctx.script(sh, `${ctx.name} shell escape`);
    const readOnly = (spec.readOnly ?? []).some((f) => flags.has(f.replace(/^-+/, "")));
    const kind = unreadable !== null ? "destructive" : analysis.kind;
    const why = unreadable ?? analysis.why ?? "";
    if (db && !db.unknown && db.text !== ":memory:" && db.text !== "") {
      if (kind === "read" || readOnly) await ctx.targets(dbs, "read", `${ctx.name} reads the database`);
      else if (kind === "additive") await ctx.targets(dbs, "write", `${ctx.name} adds to the database`);
      else await ctx.targets(dbs, "write", `${ctx.name} changes or drops data (${why})`, { destructive: true });
      return;
    }
    if (db?.unknown) return ctx.unknown(`${ctx.name} opens a database chosen at run time`);
    if (kind === "destructive" && !readOnly) {
      const name = values.get("d")?.[0] ?? values.get("dbname")?.[0] ?? values.get("database")?.[0] ?? operands[0]?.text ?? "default";
      ctx.effect({ op: "delete", path: `database:${ctx.name} ${name}`, external: true, destructive: true, why: `${ctx.name} changes or drops data (${why})` });
    }
  };
}

const SQLITE: SqlClient = {
  sql: ["-cmd"],
  files: ["-init"],
  values: ["-separator", "-newline", "-nullvalue", "-mmap", "-vfs", "-A", "-maxsize", "-lookaside", "-pagecache", "-heap"],
  readOnly: ["-readonly"],
  fileDatabase: true,
  sqlOperands: true,
  dialect: "sqlite3",
};

const redisCli: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, { withValue: ["h", "p", "a", "n", "u", "s", "user", "pass", "r", "i", "d", "D", "e", "tls", "cacert", "sni", "eval"] });
  if (args.some((a) => a.text === "--eval")) return ctx.unknown("redis-cli --eval runs a Lua script");
  const lines: string[][] = [];
  if (operands.length) lines.push(operands.map((o) => o.text));
  else if (ctx.stdinFed) {
    const stdin = await ctx.stdin();
    if (stdin.kind !== "text") {
      ctx.effect({ op: "delete", path: "database:redis", external: true, destructive: true, why: "redis-cli runs commands from stdin that cannot be read" });
      return;
    }
    for (const l of stdin.text.split("\n")) if (l.trim()) lines.push(l.trim().split(/\s+/));
  }
  for (const words of lines) {
    const cmd = (words[0] ?? "").toUpperCase();
    if (REDIS_DESTRUCTIVE.has(cmd) || (cmd === "CONFIG" && (words[1] ?? "").toUpperCase() === "SET"))
      ctx.effect({
        op: "delete",
        path: `database:redis ${words.slice(0, 3).join(" ")}`,
        external: true,
        destructive: true,
        why: `redis-cli ${cmd} deletes or rewrites data`,
      });
  }
};
// biome-ignore format: a packed word list reads better than one word per line
const REDIS_DESTRUCTIVE = new Set(["FLUSHALL", "FLUSHDB", "DEL", "UNLINK", "RENAME", "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "SHUTDOWN", "DEBUG", "SCRIPT", "EVAL", "EVALSHA", "FUNCTION", "MIGRATE", "MOVE", "RESTORE", "SWAPDB", "REPLICAOF", "SLAVEOF", "GETDEL", "HDEL", "SREM", "ZREM", "LREM", "LTRIM", "XDEL", "XTRIM", "SPOP", "LPOP", "RPOP"]);

/** patch: the patch from -i, the second operand or stdin; files named by it (or the first operand). */
const patchRule: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, {
    withValue: [
      "i",
      "input",
      "p",
      "strip",
      "d",
      "directory",
      "o",
      "output",
      "B",
      "prefix",
      "V",
      "version-control",
      "z",
      "suffix",
      "F",
      "fuzz",
      "r",
      "reject-file",
      "D",
      "ifdef",
      "g",
      "get",
      "Y",
      "basename-prefix",
    ],
  });
  if (hasAny(flags, "dry-run", "C", "check")) return;
  const cwd = ctx.state.cwd;
  const dir = values.get("d")?.[0] ?? values.get("directory")?.[0];
  const base = dir === undefined ? cwd : toAbsolute(dir, cwd);
  const strip = values.get("p")?.[0] ?? values.get("strip")?.[0];
  const reverse = hasAny(flags, "R", "reverse");
  const source = values.get("i")?.[0] ?? values.get("input")?.[0] ?? operands[1]?.text;
  let text: string | null = null;
  let from = "stdin";
  if (source !== undefined) {
    from = source;
    const abs = toAbsolute(source, cwd);
    if (abs) ctx.effect({ op: "read", path: abs, why: "patch reads the patch" });
    text = abs ? await ctx.readScript(abs) : null;
  } else if (ctx.stdinFed) {
    const stdin = await ctx.stdin();
    text = stdin.kind === "text" ? stdin.text : null;
    if (stdin.kind === "unknown") from = stdin.why;
  }
  const output = values.get("o")?.[0] ?? values.get("output")?.[0];
  if (output) await outputFile(ctx, lit(output), "patch -o writes");
  const files = text === null ? null : parsePatch(text);
  if (operands[0] && !output) {
    // `patch FILE < x.diff`: the named file is the one patched.
    const only = files?.length === 1 ? files[0]! : null;
    await applyTo(ctx, [operands[0]], only, reverse, "patch");
    return;
  }
  // Text that holds no diff is rejected by patch ("only garbage"): nothing is applied.
  if (text !== null && files === null) return;
  if (files === null || base === null) return ctx.unknown(`patch applies a patch that cannot be read (${from.slice(0, 60)})`);
  const n = strip === undefined ? null : Number(strip);
  for (const f of files) {
    const name = n === null ? posix.basename(f.path) : stripComponents(f.path, n);
    if (name === null) continue;
    await applyTo(ctx, [lit(posix.join(base, name))], f, reverse, "patch");
  }
};

/** Effects of one patched file: deleted, created, or edited (destructive when it removes more lines than it adds). */
export async function applyTo(ctx: RuleContext, targets: Arg[], f: PatchFile | null, reverse: boolean, who: string): Promise<void> {
  const op = f === null ? "modify" : reverse ? (f.op === "create" ? "delete" : f.op === "delete" ? "create" : f.op) : f.op;
  const added = f === null ? 0 : reverse ? f.removed : f.added;
  const removed = f === null ? 1 : reverse ? f.added : f.removed;
  if (op === "delete") {
    await ctx.targets(targets, "delete", `${who} deletes the file`, { destructive: true });
    return;
  }
  if (op === "rename" && f?.from) await ctx.targets([lit(f.from)], "delete", `${who} renames the file away`, { destructive: true });
  const drops = removed > added;
  await ctx.targets(
    targets,
    "write",
    drops ? `${who} removes lines from` : op === "create" ? `${who} creates` : `${who} edits`,
    drops ? { destructive: true } : {},
  );
}

// biome-ignore format: one client a line reads better
export const DATA_TOOL_RULES: RuleTable = [
  ["sqlite3", sqlClient(SQLITE)],
  ["sqlite", sqlClient(SQLITE)],
  ["duckdb", sqlClient({ ...SQLITE, sql: ["-c", "-s", "-cmd"], dialect: "sqlite3" })],
  ["psql", sqlClient({ sql: ["-c", "--command"], files: ["-f", "--file"], outputs: ["-o", "--output", "-L", "--log-file"], values: ["-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v", "--set", "--variable", "-P", "--pset", "-F", "-R", "-T"], dialect: "psql" })],
  ["mysql", sqlClient({ sql: ["-e", "--execute"], values: ["-u", "--user", "-h", "--host", "-P", "--port", "-D", "--database", "-S", "--socket", "--default-character-set"], dialect: "mysql" })],
  ["mariadb", sqlClient({ sql: ["-e", "--execute"], values: ["-u", "--user", "-h", "--host", "-P", "--port", "-D", "--database", "-S", "--socket"], dialect: "mysql" })],
  ["clickhouse-client", sqlClient({ sql: ["-q", "--query"], files: ["--queries-file"], values: ["-h", "--host", "--port", "-u", "--user", "--password", "-d", "--database", "-f", "--format"], dialect: "clickhouse" })],
  ["sqlcmd", sqlClient({ sql: ["-Q", "-q"], files: ["-i"], outputs: ["-o"], values: ["-S", "-U", "-P", "-d", "-s", "-w", "-h"], dialect: "tsql" })],
  ["cqlsh", sqlClient({ sql: ["-e", "--execute"], files: ["-f", "--file"], values: ["-u", "--username", "-p", "--password", "-k", "--keyspace", "--cqlversion"], dialect: "cql" })],
  ["cockroach", async (args, ctx) => {
    if (args[0]?.text !== "sql") return;
    await sqlClient({ sql: ["-e", "--execute"], files: ["-f", "--file"], values: ["--url", "--host", "--database", "-d", "--user", "-u", "--format"], dialect: "cockroach" })(args.slice(1), ctx);
  }],
  ["redis-cli", redisCli],
  ["patch", patchRule],
];

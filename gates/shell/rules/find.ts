/**
 * find: -delete and -exec act on every match. A read-only listing with the same roots and
 * filters names exactly what would be deleted, when the world has not changed earlier on the line.
 */
import type { Arg } from "../expand.ts";
import { listFindDeletions } from "../dry-run.ts";
import type { OptionTable } from "./models.ts";
import { lit, type Rule, type RuleTable } from "./types.ts";

// biome-ignore format: a packed word list reads better than one word per line
const FIND_VALUE_PREDICATES = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype", "-user", "-group",
  "-perm", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-maxdepth", "-mindepth", "-lname",
  "-ilname", "-links", "-inum", "-samefile", "-uid", "-gid", "-used", "-fstype", "-printf", "-newermt", "-context", "-regextype",
]);
const FIND_FILTERS = new Set(
  [...FIND_VALUE_PREDICATES, "-empty", "-executable", "-readable", "-writable", "-nouser", "-nogroup"].filter(
    (p) => p !== "-maxdepth" && p !== "-mindepth" && p !== "-printf" && p !== "-regextype",
  ),
);

const find: Rule = async (args, ctx) => {
  const roots: Arg[] = [];
  let i = 0;
  while (i < args.length && (args[i]!.text === "-H" || args[i]!.text === "-L" || args[i]!.text === "-P")) i++;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (!args[i]!.unknown && (t.startsWith("-") || t === "(" || t === "!" || t === ")")) break;
    roots.push(args[i]!);
  }
  if (roots.length === 0) roots.push(lit("."));
  const expr = args.slice(i);
  // A value computed at run time where a predicate may stand could be -delete or -exec.
  let inExec = false;
  expr.forEach((a, k) => {
    if (!a.unknown && ["-exec", "-execdir", "-ok", "-okdir"].includes(a.text)) inExec = true;
    else if (!a.unknown && (a.text === ";" || a.text === "+")) inExec = false;
    else if (!inExec && a.unknown && (a.text === "" || a.text.startsWith("-")) && !FIND_VALUE_PREDICATES.has(expr[k - 1]?.text ?? ""))
      ctx.unknown(`find with an argument computed at run time (${a.src})`);
  });
  if (roots.slice(1).some((r) => r.unknown && r.text === "")) ctx.unknown("find with an argument computed at run time: it may be a predicate");
  const filtered = expr.some((a) => FIND_FILTERS.has(a.text));
  const minDepth = expr.findIndex((a) => a.text === "-mindepth");
  const skipsRoot = filtered || (minDepth >= 0 && Number(expr[minDepth + 1]?.text) >= 1);
  const matchArgs = (under: boolean): Arg[] => roots.map((r) => ({ ...r, under }));
  ctx.setOutput({ kind: "paths", args: matchArgs(true) });
  // A read-only listing with the same roots and filters names exactly what would be deleted.
  const deletes = expr.some((a) => a.text === "-delete" || a.text === "-exec" || a.text === "-execdir");
  const listed = deletes && !ctx.worldChangedEarlier ? await listFindDeletions(ctx.env, ctx.state.cwd, args) : null;
  if (listed) {
    for (const m of listed) ctx.effect({ op: "delete", path: m.path, recursive: m.isDir, destructive: true, why: "find deletes (dry run)" });
    return;
  }
  for (let j = 0; j < expr.length; j++) {
    const t = expr[j]!.text;
    if (t === "-delete") {
      await ctx.targets(roots, "delete", filtered ? "find -delete removes matching entries under" : "find -delete removes everything under", {
        recursive: true,
        destructive: true,
        ...(skipsRoot ? { contents: true } : {}),
      });
    } else if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") {
      const end = expr.findIndex((a, k) => k > j && (a.text === ";" || a.text === "+"));
      const payload = expr.slice(j + 1, end < 0 ? undefined : end);
      j = end < 0 ? expr.length : end;
      const argv: Arg[] = [];
      for (const p of payload) {
        if (p.text === "{}") argv.push(...matchArgs(skipsRoot).map((r) => (skipsRoot ? r : { ...r, under: false })));
        else if (p.text.includes("{}")) argv.push({ ...p, text: p.text, unknown: "find -exec argument built from each match" });
        else argv.push(p);
      }
      if (argv.length) await ctx.dispatch(argv, `find ${t}`, { kind: "paths", args: matchArgs(true) });
    } else if (t === "-fprint" || t === "-fprint0" || t === "-fprintf" || t === "-fls") {
      const f = expr[j + 1];
      if (f) await ctx.targets([f], "write", `find ${t} writes`);
      j++;
    }
  }
};

export const FIND_RULES: RuleTable = [["find", find]];

// biome-ignore format: packed word lists
const FIND_NO_VALUE = ["-depth", "-d", "-follow", "-help", "--help", "-ignore_readdir_race", "-noignore_readdir_race", "-mount", "-noleaf", "-nowarn", "-warn", "-version", "--version", "-xdev", "-daystart", "-empty", "-executable", "-false", "-true", "-nogroup", "-nouser", "-readable", "-writable", "-delete", "-ls", "-print", "-print0", "-prune", "-quit", "-not", "-a", "-and", "-o", "-or"];
// biome-ignore format: packed word lists
const FIND_ONE_VALUE = ["-maxdepth", "-mindepth", "-regextype", "-amin", "-anewer", "-atime", "-cmin", "-cnewer", "-context", "-ctime", "-fstype", "-gid", "-group", "-ilname", "-iname", "-inum", "-ipath", "-iregex", "-iwholename", "-links", "-lname", "-mmin", "-mtime", "-name", "-newer", "-path", "-perm", "-regex", "-samefile", "-size", "-type", "-uid", "-used", "-user", "-wholename", "-xtype", "-fls", "-fprint", "-fprint0", "-printf"];
/** `-newerXY`: X one of a, B, c, m; Y one of those or t. */
const FIND_NEWER = [..."aBcm"].flatMap((x) => [..."aBcmt"].map((y) => `-newer${x}${y}`));

/**
 * What the find rule models of find's expression (GNU findutils find(1) 4.9): its leading
 * options (-H, -L, -P, -D, -O) and every primary with the words it takes. Left out:
 * `-files0-from` (the starting points come from a file the rule does not read).
 */
export const FIND_OPTIONS: OptionTable = [
  [
    "find",
    {
      short: "HLP",
      shortValue: "DO",
      primaries: Object.fromEntries([
        ...FIND_NO_VALUE.map((p) => [p, 0] as const),
        ...FIND_ONE_VALUE.map((p) => [p, 1] as const),
        ...FIND_NEWER.map((p) => [p, 1] as const),
        ["-fprintf", 2] as const,
        ...["-exec", "-execdir", "-ok", "-okdir"].map((p) => [p, "command"] as const),
      ]),
    },
  ],
];

/**
 * Programs that copy, move or unpack files onto a destination: mv, cp, ln, install, rsync,
 * tar, zip, unzip. Overwriting existing content is destructive; rsync --delete is planned with
 * a read-only dry run when the world has not changed earlier on the line.
 */
import { posix } from "node:path";
import type { Arg } from "../expand.ts";
import { planRsync, RSYNC_VALUE_OPTIONS, rsyncDeletes } from "../dry-run.ts";
import { hasAny, splitArgs } from "../options.ts";
import { lit, type Rule, type RuleTable } from "./types.ts";

/** mv / cp / ln / install: the destination (existing file overwritten, or dir/basename). */
function copyLike(kind: "mv" | "cp" | "ln" | "install"): Rule {
  return async (args, ctx) => {
    const withValue =
      kind === "ln" ? ["t", "target-directory", "S", "suffix"] : ["t", "target-directory", "S", "suffix", "m", "mode", "o", "owner", "g", "group"];
    const { flags, values, operands } = splitArgs(args, { withValue });
    const targetDir = values.get("t")?.[0] ?? values.get("target-directory")?.[0];
    const noClobber = hasAny(flags, "n", "no-clobber") || (kind === "ln" && !hasAny(flags, "f", "force"));
    let sources = operands;
    let dest: Arg | undefined;
    if (targetDir !== undefined) dest = lit(targetDir);
    else {
      dest = operands.at(-1);
      sources = operands.slice(0, -1);
    }
    if (!dest) return;
    if (kind === "ln" && sources.length === 0) {
      sources = [dest];
      dest = lit(".");
    }
    if (kind === "mv") await ctx.targets(sources, "delete", "mv removes the source", { recursive: true, destructive: true });
    else if (kind === "cp") await ctx.targets(sources, "read", "cp reads");
    const destPaths = await ctx.paths(dest, `${kind} destination`);
    for (const d of destPaths) {
      if (d.endsWith("/\u0000")) {
        ctx.effect({ op: "write", path: d.slice(0, -2) || "/", contents: true, why: `${kind} writes into`, destructive: !noClobber });
        continue;
      }
      const info = await ctx.env.lstat(d);
      const intoDir = info?.type === "dir" && !hasAny(flags, "T", "no-target-directory");
      const finals = intoDir ? sources.map((s) => posix.join(d, posix.basename(s.unknown ? "*" : s.text))) : [d];
      for (const f of finals) {
        const existing = intoDir ? await ctx.env.lstat(f) : info;
        const overwrites = existing !== null && !noClobber;
        const recursive = kind !== "ln" && (hasAny(flags, "r", "R", "a", "recursive", "archive") || kind === "mv") && existing?.type === "dir";
        ctx.effect({
          op: "write",
          path: f,
          why: overwrites ? `${kind} overwrites the existing ${existing?.type ?? "file"}` : `${kind} creates`,
          ...(overwrites ? { destructive: true } : {}),
          ...(recursive ? { recursive: true } : {}),
        });
      }
    }
  };
}

const rsync: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: RSYNC_VALUE_OPTIONS });
  const dest = operands.at(-1);
  const sources = operands.slice(0, -1);
  if (!dest) return;
  const remote = (a: Arg) => /^[^/]*:/.test(a.text);
  if (remote(dest)) ctx.effect({ op: "write", path: `remote:${dest.text}`, external: true, why: "rsync to a remote host" });
  else {
    const del = rsyncDeletes(args);
    // A read-only `rsync -n -i` names exactly what would be deleted and written.
    const plan = del && !ctx.worldChangedEarlier ? await planRsync(ctx.env, ctx.state.cwd, args) : null;
    if (plan) {
      for (const d of plan.deletions)
        ctx.effect({ op: "delete", path: d.path, recursive: d.isDir, destructive: true, why: "rsync --delete removes (dry run)" });
      for (const w of plan.writes)
        ctx.effect({
          op: "write",
          path: w.path,
          why: w.existed ? "rsync overwrites (dry run)" : "rsync creates (dry run)",
          ...(w.existed && !w.isDir ? { destructive: true } : {}),
        });
      if (hasAny(flags, "remove-source-files")) await ctx.targets(sources, "delete", "rsync --remove-source-files", { recursive: true, destructive: true });
      return;
    }
    // With --delete the destination ends up a copy of the source: treat it as deleting the destination.
    await ctx.targets([dest], del ? "delete" : "write", del ? "rsync --delete removes destination files missing from the source" : "rsync writes", {
      recursive: true,
      destructive: del,
    });
    if (!del) await ctx.targets([dest], "write", "rsync overwrites files in the destination", { recursive: true });
  }
  if (hasAny(flags, "remove-source-files"))
    await ctx.targets(
      sources.filter((s) => !remote(s)),
      "delete",
      "rsync --remove-source-files",
      { recursive: true, destructive: true },
    );
};

const tar: Rule = async (args, ctx) => {
  // Old-style bundled first argument: `tar xzf a.tgz`.
  const norm = [...args];
  if (norm[0] && !norm[0].text.startsWith("-") && /^[A-Za-z]+$/.test(norm[0].text)) norm[0] = { ...norm[0], text: "-" + norm[0].text };
  const { flags, values, operands } = splitArgs(norm, {
    withValue: [
      "f",
      "file",
      "C",
      "directory",
      "T",
      "files-from",
      "X",
      "exclude-from",
      "exclude",
      "transform",
      "use-compress-program",
      "I",
      "H",
      "format",
      "b",
      "blocking-factor",
      "owner",
      "group",
      "mode",
      "mtime",
      "newer",
      "N",
      "g",
      "listed-incremental",
    ],
  });
  const archive = values.get("f")?.[0] ?? values.get("file")?.[0];
  const dir = values.get("C")?.[0] ?? values.get("directory")?.[0] ?? ".";
  if (hasAny(flags, "x", "extract", "get")) {
    await ctx.targets([lit(dir)], "write", "tar -x extracts (overwriting existing files)", { recursive: true, contents: true });
    if (archive) await ctx.targets([lit(archive)], "read", "tar reads the archive");
  } else if (hasAny(flags, "c", "create", "r", "append", "u", "update")) {
    if (archive && archive !== "-") await ctx.targets([lit(archive)], "write", "tar writes the archive");
    if (hasAny(flags, "remove-files")) {
      const base = dir === "." ? operands : operands.map((o) => ({ ...o, text: posix.join(dir, o.text) }));
      await ctx.targets(base, "delete", "tar --remove-files deletes the archived sources", { recursive: true, destructive: true });
    }
  } else if (hasAny(flags, "delete")) {
    if (archive) await ctx.targets([lit(archive)], "write", "tar --delete rewrites the archive", { destructive: true });
  }
};

const zip: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: ["b", "t", "tt", "n", "P", "password", "x", "i", "O", "output-file"] });
  const [archive, ...files] = operands;
  if (archive) await ctx.targets([archive], "write", "zip writes the archive");
  if (hasAny(flags, "m", "move"))
    await ctx.targets(files, "delete", "zip -m deletes the sources after archiving", { recursive: hasAny(flags, "r"), destructive: true });
  else await ctx.targets(files, "read", "zip reads");
};

const unzip: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: ["d", "x", "P"] });
  if (hasAny(flags, "l", "t", "v", "Z")) return;
  const dir = values.get("d")?.[0] ?? ".";
  await ctx.targets([lit(dir)], "write", hasAny(flags, "o") ? "unzip -o overwrites files" : "unzip extracts", {
    recursive: true,
    contents: true,
    destructive: hasAny(flags, "o"),
  });
  if (operands[0]) await ctx.targets([operands[0]], "read", "unzip reads the archive");
};

export const COPY_MOVE_RULES: RuleTable = [
  ["mv", copyLike("mv")],
  ["cp", copyLike("cp")],
  ["ln", copyLike("ln")],
  ["install", copyLike("install")],
  ["rsync", rsync],
  ["tar", tar],
  ["zip", zip],
  ["unzip", unzip],
];

/**
 * Programs that copy, move or unpack files onto a destination: mv, cp, ln, install, rename,
 * rsync, tar, zip, unzip. Overwriting existing content is destructive; rsync --delete is planned
 * with a read-only dry run when the world has not changed earlier on the line. Extracting
 * (tar -x, unzip -o) into a folder that already holds entries may overwrite them: a read-only
 * listing of the archive names those it would replace; without one, the extraction is
 * destructive unless the folder is new or empty or the tool is told to keep old files.
 */
import { posix } from "node:path";
import { toAbsolute, type Arg } from "../expand.ts";
import { listArchive, planRsync, RSYNC_VALUE_OPTIONS, rsyncDeletes } from "../dry-run.ts";
import { hasAny, splitArgs } from "../options.ts";
import { type OptionModel, type OptionTable, valueOptions } from "./models.ts";
import { outputFile } from "./output-files.ts";
import { lit, type Rule, type RuleContext, type RuleTable } from "./types.ts";

/**
 * Extraction of `archive` into `dir`: exact overwrites from a read-only listing when there is
 * one; else the folder's entries may be replaced, destructive unless the folder is new or empty.
 */
async function extractInto(ctx: RuleContext, dir: string, archiveArgv: string[] | null, what: string, overwrites: boolean): Promise<void> {
  const [abs] = await ctx.paths(lit(dir), what);
  if (abs === undefined) return;
  if (!overwrites) {
    ctx.effect({ op: "write", path: abs, recursive: true, contents: true, why: `${what} (keeping existing files)` });
    return;
  }
  const entries = abs.endsWith("/\u0000") ? null : await ctx.env.readdir(abs);
  if (entries !== null && entries.length === 0) {
    ctx.effect({ op: "write", path: abs, recursive: true, contents: true, why: `${what} into an empty folder` });
    return;
  }
  if (entries === null && !abs.endsWith("/\u0000") && (await ctx.env.lstat(abs)) === null) {
    ctx.effect({ op: "write", path: abs, recursive: true, contents: true, why: `${what} into a new folder` });
    return;
  }
  const listed = archiveArgv && !ctx.worldChangedEarlier ? await listArchive(ctx.env, ctx.state.cwd, archiveArgv) : null;
  if (listed) {
    for (const name of listed) {
      const target = posix.join(abs, name);
      const info = await ctx.env.lstat(target);
      if (info !== null && info.type !== "dir") ctx.effect({ op: "write", path: target, destructive: true, why: `${what} overwrites (archive listing)` });
    }
    ctx.effect({ op: "write", path: abs, recursive: true, contents: true, why: what });
    return;
  }
  ctx.effect({ op: "write", path: abs, recursive: true, contents: true, destructive: true, why: `${what} may overwrite existing files` });
}

/** mv / cp / ln / install: the destination (existing file overwritten, or dir/basename). */
function copyLike(kind: "mv" | "cp" | "ln" | "install"): Rule {
  return async (args, ctx) => {
    const withValue =
      kind === "ln" ? ["t", "target-directory", "S", "suffix"] : ["t", "target-directory", "S", "suffix", "m", "mode", "o", "owner", "g", "group"];
    const { flags, values, operands } = splitArgs(args, { withValue });
    // `install -d A B`: every operand is a directory to create.
    if (kind === "install" && hasAny(flags, "d", "directory")) return ctx.targets(operands, "write", "install -d creates a directory");
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
    const recursiveCopy = kind !== "ln" && (hasAny(flags, "r", "R", "a", "recursive", "archive") || kind === "mv");
    // Each source as the shell gives it (globs expanded against the world): its name in the destination folder.
    const expanded: { abs: string | null; name: string }[] = [];
    for (const s of sources) {
      if (s.unknown) {
        expanded.push({ abs: null, name: "*" });
        continue;
      }
      const found = s.glob ? await ctx.paths(s, `${kind} source`) : [toAbsolute(s.text, ctx.state.cwd)];
      for (const abs of found) {
        if (abs === null || abs.endsWith("/\u0000")) expanded.push({ abs: null, name: "*" });
        else expanded.push({ abs, name: posix.basename(s.glob ? abs : s.text) });
      }
    }
    for (const d of destPaths) {
      if (d.endsWith("/\u0000")) {
        ctx.effect({ op: "write", path: d.slice(0, -2) || "/", contents: true, why: `${kind} writes into`, destructive: !noClobber });
        continue;
      }
      const info = await ctx.env.lstat(d);
      const intoDir = info?.type === "dir" && !hasAny(flags, "T", "no-target-directory");
      const finals = intoDir ? expanded.map((s) => ({ path: posix.join(d, s.name), source: s.abs })) : [{ path: d, source: expanded[0]?.abs ?? null }];
      for (const { path: f, source } of finals) {
        const existing = intoDir ? await ctx.env.lstat(f) : info;
        const overwrites = existing !== null && !noClobber;
        const recursive = recursiveCopy && existing?.type === "dir";
        // A folder copied onto an existing folder merges into it: it replaces the files both hold.
        if (kind === "cp" && recursive && overwrites && source !== null) {
          const hit = await collisions(ctx, source, f);
          if (hit !== null) {
            for (const c of hit) ctx.effect({ op: "write", path: c, destructive: true, why: "cp -r overwrites the existing file in the destination folder" });
            ctx.effect({ op: "write", path: f, recursive: true, contents: true, why: "cp -r merges into the existing folder" });
            continue;
          }
        }
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

/** At most this many entries of a source folder are walked to find what a copy would replace. */
const MAX_WALK = 2000;

/**
 * The files under `dest` that copying the folder `source` onto it would replace (the same
 * relative path exists in both, and is not a folder in the destination), read from the world;
 * null when the source cannot be walked (not a folder, unreadable, too large).
 */
export async function collisions(ctx: RuleContext, source: string, dest: string): Promise<string[] | null> {
  const top = await ctx.env.lstat(source);
  if (top === null) return null;
  if (top.type !== "dir") {
    const there = await ctx.env.lstat(dest);
    return there !== null && there.type !== "dir" ? [dest] : [];
  }
  const out: string[] = [];
  const queue: string[] = [""];
  let seen = 0;
  while (queue.length > 0) {
    const rel = queue.shift()!;
    const names = await ctx.env.readdir(posix.join(source, rel));
    if (names === null) return null;
    for (const name of names) {
      if (++seen > MAX_WALK) return null;
      const r = posix.join(rel, name);
      const s = await ctx.env.lstat(posix.join(source, r));
      const t = await ctx.env.lstat(posix.join(dest, r));
      if (s?.type === "dir") {
        if (t?.type === "dir") queue.push(r);
        else if (t !== null) out.push(posix.join(dest, r));
      } else if (t !== null && t.type !== "dir") out.push(posix.join(dest, r));
    }
  }
  return out;
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
    if (!del && !hasAny(flags, "ignore-existing", "existing")) {
      // Without --delete, a sync into an existing folder replaces the files both hold: a dry run
      // names them; else the world view, walking each source.
      const dry = !ctx.worldChangedEarlier ? await planRsync(ctx.env, ctx.state.cwd, args) : null;
      let hits: string[] | null = dry ? dry.writes.filter((w) => w.existed && !w.isDir).map((w) => w.path) : null;
      const [destAbs] = await ctx.paths(dest, "rsync destination");
      if (hits === null && destAbs !== undefined && !destAbs.endsWith("/\u0000") && (await ctx.env.lstat(destAbs))?.type === "dir") {
        hits = [];
        for (const s of sources) {
          const abs = s.unknown || s.glob ? null : toAbsolute(s.text, ctx.state.cwd);
          // `src/` copies the folder's entries, `src` the folder itself.
          const c = abs === null ? null : await collisions(ctx, abs, /\/\.?$/.test(s.text) ? destAbs : posix.join(destAbs, posix.basename(abs)));
          if (c === null) {
            hits = null;
            break;
          }
          hits.push(...c);
        }
      }
      if (hits === null && destAbs !== undefined && (await ctx.env.lstat(destAbs.endsWith("/\u0000") ? destAbs.slice(0, -2) || "/" : destAbs))?.type === "dir")
        await ctx.targets([dest], "write", "rsync may overwrite files in the existing folder", { recursive: true, destructive: true });
      for (const h of hits ?? []) ctx.effect({ op: "write", path: h, destructive: true, why: "rsync overwrites the existing file" });
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
    if (hasAny(flags, "to-stdout", "O", "to-command")) {
      if (hasAny(flags, "to-command")) ctx.unknown("tar --to-command runs a command per entry");
      if (archive) await ctx.targets([lit(archive)], "read", "tar reads the archive");
      return;
    }
    const keeps = hasAny(flags, "k", "keep-old-files", "skip-old-files", "keep-newer-files") && !hasAny(flags, "overwrite");
    const compression = [...flags]
      .filter((f) => ["z", "j", "J", "Z", "gzip", "bzip2", "xz", "zstd", "lzma", "auto-compress", "a"].includes(f))
      .map((f) => (f.length === 1 ? `-${f}` : `--${f}`));
    const listing = archive && archive !== "-" ? ["tar", "-t", ...compression, "-f", archive] : null;
    await extractInto(ctx, dir, listing, "tar -x extracts", !keeps);
    if (archive) await ctx.targets([lit(archive)], "read", "tar reads the archive");
  } else if (hasAny(flags, "c", "create", "r", "append", "u", "update")) {
    if (archive && archive !== "-") {
      if (hasAny(flags, "c", "create")) await outputFile(ctx, lit(archive), "tar -c writes the archive");
      else await ctx.targets([lit(archive)], "write", "tar writes the archive");
    }
    if (hasAny(flags, "remove-files")) {
      const base = dir === "." ? operands : operands.map((o) => ({ ...o, text: posix.join(dir, o.text) }));
      await ctx.targets(base, "delete", "tar --remove-files deletes the archived sources", { recursive: true, destructive: true });
    }
  } else if (hasAny(flags, "delete")) {
    if (archive) await ctx.targets([lit(archive)], "write", "tar --delete rewrites the archive", { destructive: true });
  }
};

/**
 * zip's options (Info-ZIP zip(1) 3.0). Left out: `-O/--output-file` and `-F/-FF/-FS` (write or
 * prune another archive than the one named), `-T/-TT` (test with a command of the caller's
 * choosing), `-@` (names from stdin).
 */
// biome-ignore format: packed word lists
const ZIP_OPTIONS: OptionModel = { short: "0123456789AcdDegjJklLmoqrRSuvXyzh", shortValue: "bntxiPs", long: ["recurse-paths", "recurse-patterns", "move", "delete", "quiet", "verbose", "update", "freshen", "junk-paths", "symlinks", "no-extra", "grow", "encrypt", "latest-time", "no-dir-entries", "to-crlf", "from-crlf", "adjust-sfx", "show-files", "display-counts", "display-bytes", "display-dots", "display-globaldots", "display-usize", "display-volume", "no-wild", "wild-stop-dirs", "license", "help", "version"], longValue: ["exclude", "include", "password", "temp-path", "suffixes", "split-size", "compression-method", "dot-size", "before", "after"] };
/** unzip's options (Info-ZIP unzip(1) 6.0, and zipinfo's after -Z). Left out: `-:` and `-^` (names outside the folder, control characters). */
const UNZIP_OPTIONS: OptionModel = { short: "lptvzZcfuonjaqsCDKLMUVWXTbBhN12", shortValue: "dxP", long: ["help", "version"] };

const zip: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: valueOptions(ZIP_OPTIONS) });
  const [archive, ...files] = operands;
  if (hasAny(flags, "d", "delete")) {
    // The operands after the archive name entries inside it, not files.
    if (archive) await outputFile(ctx, archive, "zip -d deletes entries from the archive");
    return;
  }
  if (archive) await ctx.targets([archive], "write", "zip writes the archive");
  if (hasAny(flags, "m", "move"))
    await ctx.targets(files, "delete", "zip -m deletes the sources after archiving", { recursive: hasAny(flags, "r"), destructive: true });
  else await ctx.targets(files, "read", "zip reads");
};

const unzip: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: valueOptions(UNZIP_OPTIONS) });
  if (hasAny(flags, "l", "t", "v", "Z")) return;
  const dir = values.get("d")?.[0] ?? ".";
  if (hasAny(flags, "p", "c")) {
    if (operands[0]) await ctx.targets([operands[0]], "read", "unzip reads the archive");
    return;
  }
  // Without -o unzip asks before replacing a file (and, with no terminal, replaces nothing).
  const archive = operands[0];
  const listing = archive && !archive.unknown ? ["unzip", "-Z1", archive.text] : null;
  await extractInto(ctx, dir, listing, hasAny(flags, "o") ? "unzip -o extracts" : "unzip extracts", hasAny(flags, "o") && !hasAny(flags, "n"));
  if (archive) await ctx.targets([archive], "read", "unzip reads the archive");
};

/** rename (perl's `rename EXPR files`, util-linux's `rename from to files`): every file is moved to a computed name. */
const rename: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: ["e", "E"] });
  if (hasAny(flags, "n", "no-act", "nono")) return;
  const perlStyle = operands[0] !== undefined && /^(s|y|tr)\W/.test(operands[0].text);
  const files = operands.slice(perlStyle || args.some((a) => a.text === "-e") ? 1 : 2);
  await ctx.targets(files, "delete", `${ctx.name} moves the file to a computed name (may replace another)`, { destructive: true });
};

export const COPY_MOVE_RULES: RuleTable = [
  ["rename", rename],
  ["prename", rename],
  ["file-rename", rename],
  ["mv", copyLike("mv")],
  ["cp", copyLike("cp")],
  ["ln", copyLike("ln")],
  ["install", copyLike("install")],
  ["rsync", rsync],
  ["tar", tar],
  ["zip", zip],
  ["unzip", unzip],
];

const HELP = ["help", "version"];
// biome-ignore format: packed word lists
const RSYNC_LONG = ["verbose", "quiet", "no-motd", "checksum", "archive", "recursive", "inc-recursive", "i-r", "relative", "no-implied-dirs", "backup", "update", "inplace", "append", "append-verify", "dirs", "old-dirs", "old-d", "mkpath", "links", "copy-links", "copy-unsafe-links", "safe-links", "insecure-links", "munge-links", "copy-dirlinks", "keep-dirlinks", "hard-links", "perms", "executability", "acls", "xattrs", "owner", "group", "devices", "copy-devices", "specials", "times", "atimes", "open-noatime", "crtimes", "omit-dir-times", "omit-link-times", "super", "fake-super", "sparse", "preallocate", "dry-run", "whole-file", "one-file-system", "existing", "ignore-non-existing", "ignore-existing", "remove-source-files", "del", "delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "ignore-missing-args", "delete-missing-args", "ignore-errors", "force", "partial", "delay-updates", "prune-empty-dirs", "numeric-ids", "ignore-times", "size-only", "fuzzy", "compress", "cvs-exclude", "from0", "old-args", "secluded-args", "protect-args", "trust-sender", "blocking-io", "stats", "8-bit-output", "human-readable", "progress", "itemize-changes", "list-only", "fsync", "ipv4", "ipv6", "drop-D", ...HELP];
// biome-ignore format: packed word lists
const RSYNC_LONG_VALUE = ["info", "debug", "stderr", "suffix", "chmod", "checksum-choice", "cc", "confine-root", "block-size", "max-delete", "max-size", "min-size", "max-alloc", "partial-dir", "usermap", "groupmap", "chown", "timeout", "contimeout", "modify-window", "temp-dir", "compare-dest", "copy-dest", "link-dest", "compress-choice", "zc", "compress-level", "zl", "compress-threads", "zt", "skip-compress", "filter", "exclude", "exclude-from", "include", "include-from", "files-from", "address", "port", "sockopts", "outbuf", "out-format", "log-file-format", "password-file", "early-input", "bwlimit", "stop-after", "stop-at", "protocol", "iconv", "checksum-seed"];
// biome-ignore format: packed word lists
const TAR_LONG = ["create", "extract", "get", "list", "update", "append", "diff", "compare", "delete", "test-label", "incremental", "check-device", "no-check-device", "seek", "no-seek", "occurrence", "sparse", "ignore-failed-read", "keep-old-files", "skip-old-files", "keep-newer-files", "keep-directory-symlink", "no-overwrite-dir", "overwrite", "overwrite-dir", "one-top-level", "remove-files", "unlink-first", "verify", "to-stdout", "touch", "preserve-permissions", "same-permissions", "preserve-order", "same-order", "ignore-command-error", "no-ignore-command-error", "atime-preserve", "clamp-mtime", "delay-directory-restore", "no-delay-directory-restore", "no-same-owner", "no-same-permissions", "numeric-owner", "same-owner", "acls", "no-acls", "selinux", "no-selinux", "xattrs", "no-xattrs", "exclude-backups", "exclude-caches", "exclude-caches-all", "exclude-caches-under", "exclude-vcs", "exclude-vcs-ignores", "null", "no-null", "recursion", "no-recursion", "unquote", "no-unquote", "verbatim-files-from", "no-verbatim-files-from", "anchored", "no-anchored", "ignore-case", "no-ignore-case", "wildcards", "no-wildcards", "wildcards-match-slash", "no-wildcards-match-slash", "force-local", "multi-volume", "read-full-records", "ignore-zeros", "old-archive", "portability", "posix", "auto-compress", "no-auto-compress", "bzip2", "xz", "lzip", "lzma", "lzop", "zstd", "gzip", "gunzip", "ungzip", "compress", "uncompress", "backup", "dereference", "hard-dereference", "one-file-system", "check-links", "block-number", "checkpoint", "full-time", "show-defaults", "show-omitted-dirs", "show-snapshot-field-ranges", "show-transformed-names", "show-stored-names", "totals", "utc", "verbose", "interactive", "confirmation", "restrict", "usage", ...HELP];
// biome-ignore format: packed word lists
const TAR_LONG_VALUE = ["file", "directory", "files-from", "exclude-from", "exclude", "exclude-ignore", "exclude-ignore-recursive", "exclude-tag", "exclude-tag-all", "exclude-tag-under", "add-file", "hole-detection", "level", "sparse-version", "to-command", "group", "group-map", "owner", "owner-map", "mode", "mtime", "sort", "xattrs-exclude", "xattrs-include", "record-size", "blocking-factor", "format", "label", "pax-option", "tape-length", "starting-file", "newer", "after-date", "newer-mtime", "suffix", "quote-chars", "no-quote-chars", "quoting-style", "warning"];

/**
 * What the copy and move rules model of each program's options: GNU coreutils cp(1), mv(1),
 * ln(1) and install(1), rsync(1) 3.5 and GNU tar(1) 1.34. Left out: options that run another
 * program (`install --strip-program`, `rsync -e/--rsh/--rsync-path/-M`, `tar -I/-F/--rsh-command/
 * --rmt-command/--checkpoint-action`), write a file the rule does not judge (`rsync --log-file/
 * --backup-dir/--write-batch`, `tar -g/--index-file/--volno-file`), or put the effect elsewhere
 * than the rule computes (`cp --parents`, `tar -P/--absolute-names/--strip-components/--transform/
 * --recursive-unlink`, `tar -A`, `rsync --read-batch/--copy-as/--write-devices`).
 */
export const COPY_MOVE_OPTIONS: OptionTable = [
  [
    "cp",
    {
      short: "abdfiHlLnPpRrsTuvxZ",
      shortValue: "St",
      // biome-ignore format: packed word lists
      long: ["archive", "attributes-only", "backup", "copy-contents", "force", "interactive", "link", "dereference", "no-clobber", "no-dereference", "preserve", "reflink", "remove-destination", "strip-trailing-slashes", "recursive", "symbolic-link", "no-target-directory", "update", "verbose", "one-file-system", "context", ...HELP],
      longValue: ["no-preserve", "sparse", "suffix", "target-directory"],
    },
  ],
  [
    "mv",
    {
      short: "bfinTuvZ",
      shortValue: "St",
      long: ["backup", "force", "interactive", "no-clobber", "strip-trailing-slashes", "no-target-directory", "update", "verbose", "context", ...HELP],
      longValue: ["suffix", "target-directory"],
    },
  ],
  [
    "ln",
    {
      short: "bdFfiLnPrsTv",
      shortValue: "St",
      long: [
        "backup",
        "directory",
        "force",
        "interactive",
        "logical",
        "no-dereference",
        "physical",
        "relative",
        "symbolic",
        "no-target-directory",
        "verbose",
        ...HELP,
      ],
      longValue: ["suffix", "target-directory"],
    },
  ],
  [
    "install",
    {
      short: "bcCdDpsTvZ",
      shortValue: "gmoSt",
      long: ["backup", "compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose", "preserve-context", "context", ...HELP],
      longValue: ["group", "mode", "owner", "suffix", "target-directory"],
    },
  ],
  ["rsync", { short: "vqcarRbudlLkKHpEAXogDtUNOJSnWxmIyzCF0s8hPi46V", shortValue: "B@Tf", long: RSYNC_LONG, longValue: RSYNC_LONG_VALUE, negatable: true }],
  ["tar", { short: "cdrtuxGnSkUWOmpsMBiajJzZhlRvwo?", shortValue: "CTXfLbHVKN", long: TAR_LONG, longValue: TAR_LONG_VALUE, bundledFirst: true }],
  ["zip", ZIP_OPTIONS],
  ["unzip", UNZIP_OPTIONS],
];

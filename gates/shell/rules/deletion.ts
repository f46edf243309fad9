/** Programs that delete or destroy content: rm, rmdir, shred, truncate, dd of=, rimraf. */
import { hasAny, splitArgs } from "../options.ts";
import type { OptionTable } from "./models.ts";
import { outputFile } from "./output-files.ts";
import type { Rule, RuleTable } from "./types.ts";

const rm: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args);
  const recursive = hasAny(flags, "r", "R", "recursive");
  await ctx.targets(operands, "delete", recursive ? `${ctx.name} -r deletes` : `${ctx.name} deletes`, { recursive, destructive: true });
};

const rmdir: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args);
  // rmdir only removes empty directories: no data is lost.
  await ctx.targets(operands, "delete", "rmdir removes an empty directory", { destructive: false });
};

const shred: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args, { withValue: ["n", "s", "iterations", "size", "random-source"] });
  const del = hasAny(flags, "u", "remove", "zero");
  await ctx.targets(operands, del ? "delete" : "write", "shred destroys content", { destructive: true });
};

const truncate: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, { withValue: ["s", "size", "r", "reference"] });
  await ctx.targets(operands, "write", "truncate changes the file size (content lost)", { destructive: true });
};

const dd: Rule = async (args, ctx) => {
  for (const a of args) {
    if (a.text.startsWith("of=")) {
      // conv=notrunc keeps what is not overwritten; either way existing bytes are replaced.
      await outputFile(ctx, { ...a, text: a.text.slice(3) }, "dd of= writes");
    } else if (a.text.startsWith("if=")) await ctx.targets([{ ...a, text: a.text.slice(3) }], "read", "dd if= reads");
  }
};

const rimraf: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, { withValue: ["glob"] });
  await ctx.targets(operands, "delete", `${ctx.name} deletes recursively`, { recursive: true, destructive: true });
};

export const DELETION_RULES: RuleTable = [
  ["rm", rm],
  ["rmdir", rmdir],
  ["unlink", rm],
  ["shred", shred],
  ["truncate", truncate],
  ["dd", dd],
  ["rimraf", rimraf],
  ["del-cli", rimraf],
  ["trash", rimraf],
];

const HELP = ["help", "version"];
/** dd's operands (GNU coreutils dd(1)): if= and of= are judged, the others change nothing the rule judges. */
export const DD_KEYS = ["if", "of", "ibs", "obs", "bs", "cbs", "skip", "iseek", "seek", "oseek", "count", "conv", "iflag", "oflag", "status"];

/** What the deletion rules model of each program's options (GNU coreutils rm(1), rmdir(1), unlink(1), shred(1), truncate(1), dd(1)). */
export const DELETION_OPTIONS: OptionTable = [
  ["rm", { short: "fiIrRdv", long: ["force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "recursive", "dir", "verbose", ...HELP] }],
  ["rmdir", { short: "pv", long: ["ignore-fail-on-non-empty", "parents", "verbose", ...HELP] }],
  ["unlink", { long: HELP }],
  [
    "shred",
    { short: "fuvxz", shortValue: "ns", long: ["force", "remove", "verbose", "exact", "zero", ...HELP], longValue: ["iterations", "random-source", "size"] },
  ],
  ["truncate", { short: "co", shortValue: "sr", long: ["no-create", "io-blocks", ...HELP], longValue: ["reference", "size"] }],
  ["dd", { long: HELP, keys: DD_KEYS }],
];

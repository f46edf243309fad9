/**
 * Programs that write files or change their metadata: tee (without -a it replaces an existing
 * file's content: destructive), touch, mkdir, chmod/chown/chgrp. In-place editors are in
 * editors.ts, output-file arguments of other tools in output-files.ts.
 */
import { toAbsolute } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import type { OptionTable } from "./models.ts";
import { outputFile } from "./output-files.ts";
import type { Rule, RuleTable } from "./types.ts";

const tee: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args);
  const append = hasAny(flags, "a", "append");
  for (const o of operands) await outputFile(ctx, o, append ? "tee -a appends" : "tee writes", { append });
  const stdin = await ctx.stdin();
  for (const o of operands) {
    const abs = o.unknown ? null : toAbsolute(o.text, ctx.state.cwd);
    if (abs) ctx.recordWrite(abs, stdin.kind === "text" && !append ? stdin.text : null);
  }
  ctx.setOutput(stdin);
};

/** touch and mkdir: every operand is written; `withValue` are the program's value-taking options (touch -m takes none, mkdir -m a mode). */
const touchLike =
  (why: string, withValue: readonly string[]): Rule =>
  async (args, ctx) => {
    const { operands } = splitArgs(args, { withValue: [...withValue] });
    await ctx.targets(operands, "write", why);
  };

/** A symbolic mode that starts with a dash (`chmod -x f`, `chmod -w,u+x f`): an operand, not an option. */
const CHMOD_DASH_MODE = /^-[rwxXst][rwxXstugoa,+=-]*$/;

const chmodLike: Rule = async (args, ctx) => {
  // `chmod -x f`: a symbolic mode that looks like a flag; once taken out, no operand is the mode.
  const dashMode = (a: { text: string }) => ctx.name === "chmod" && CHMOD_DASH_MODE.test(a.text);
  const modeAsFlag = args.some(dashMode);
  const { flags, operands } = splitArgs(
    args.filter((a) => !dashMode(a)),
    { withValue: ["reference", "from"] },
  );
  const recursive = hasAny(flags, "R", "recursive");
  const files = flags.has("reference") || modeAsFlag ? operands : operands.slice(1);
  await ctx.targets(files, "write", `${ctx.name}${recursive ? " -R" : ""} changes permissions`, recursive ? { recursive: true, destructive: true } : {});
};

const mkdir: Rule = touchLike("mkdir creates a directory", ["m", "mode"]);

export const FILE_WRITE_RULES: RuleTable = [
  ["tee", tee],
  ["touch", touchLike("touch creates or updates", ["d", "date", "r", "reference", "t", "time"])],
  ["mkdir", mkdir],
  ["chmod", chmodLike],
  ["chown", chmodLike],
  ["chgrp", chmodLike],
];

const HELP = ["help", "version"];
const OWNER = {
  short: "cfvhHLPR",
  long: ["changes", "silent", "quiet", "verbose", "dereference", "no-dereference", "no-preserve-root", "preserve-root", "recursive", ...HELP],
  longValue: ["from", "reference"],
};

/** What the file-write rules model of each program's options (GNU coreutils tee(1), touch(1), mkdir(1), chmod(1), chown(1), chgrp(1)). */
export const FILE_WRITE_OPTIONS: OptionTable = [
  ["tee", { short: "aip", long: ["append", "ignore-interrupts", "output-error", ...HELP] }],
  ["touch", { short: "acfhm", shortValue: "drt", long: ["no-create", "no-dereference", ...HELP], longValue: ["date", "reference", "time"] }],
  ["mkdir", { short: "pvZ", shortValue: "m", long: ["parents", "verbose", "context", ...HELP], longValue: ["mode"] }],
  [
    "chmod",
    {
      short: "cfvR",
      long: ["changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "recursive", ...HELP],
      longValue: ["reference"],
      dashOperand: CHMOD_DASH_MODE,
    },
  ],
  ["chown", OWNER],
  ["chgrp", OWNER],
];

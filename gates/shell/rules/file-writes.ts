/**
 * Programs that write files or change their metadata: tee (without -a it replaces an existing
 * file's content: destructive), touch, mkdir, chmod/chown/chgrp. In-place editors are in
 * editors.ts, output-file arguments of other tools in output-files.ts.
 */
import { toAbsolute } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
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

const touchLike =
  (why: string): Rule =>
  async (args, ctx) => {
    const { operands } = splitArgs(args, { withValue: ["m", "mode", "d", "date", "r", "reference", "t", "Z", "context"] });
    await ctx.targets(operands, "write", why);
  };

const chmodLike: Rule = async (args, ctx) => {
  // `chmod -x f`: a symbolic mode that looks like a flag; once taken out, no operand is the mode.
  const dashMode = (a: { text: string }) => ctx.name === "chmod" && /^-[rwxXst]+$/.test(a.text);
  const modeAsFlag = args.some(dashMode);
  const { flags, operands } = splitArgs(
    args.filter((a) => !dashMode(a)),
    { withValue: ["reference", "from"] },
  );
  const recursive = hasAny(flags, "R", "recursive");
  const files = flags.has("reference") || modeAsFlag ? operands : operands.slice(1);
  await ctx.targets(files, "write", `${ctx.name}${recursive ? " -R" : ""} changes permissions`, recursive ? { recursive: true, destructive: true } : {});
};

const mkdir: Rule = touchLike("mkdir creates a directory");

export const FILE_WRITE_RULES: RuleTable = [
  ["tee", tee],
  ["touch", touchLike("touch creates or updates")],
  ["mkdir", mkdir],
  ["chmod", chmodLike],
  ["chown", chmodLike],
  ["chgrp", chmodLike],
];

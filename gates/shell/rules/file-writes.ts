/** Programs that write or change files in place: sed -i, tee, touch, mkdir, chmod/chown/chgrp. */
import { toAbsolute } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import type { Rule, RuleTable } from "./types.ts";

const sed: Rule = async (args, ctx) => {
  const { flags, values, operands } = splitArgs(args, { withValue: ["e", "expression", "f", "file", "l", "line-length"] });
  const inPlace = [...flags].some((f) => f === "i" || f.startsWith("in-place")) || args.some((a) => /^-[a-zA-Z]*i/.test(a.text) && !a.text.startsWith("--"));
  const hasScriptOption = values.has("e") || values.has("expression") || values.has("f") || values.has("file");
  const files = hasScriptOption ? operands : operands.slice(1);
  const script = hasScriptOption ? [...(values.get("e") ?? []), ...(values.get("expression") ?? [])].join("\n") : (operands[0]?.text ?? "");
  if (/(^|[;}\s\d$/])w\s+\S/.test(script) || /\be\b\s/.test(script)) ctx.unknown(`sed script writes or executes (${script.slice(0, 40)})`);
  if (inPlace) await ctx.targets(files, "write", "sed -i rewrites the file");
  else {
    await ctx.targets(files, "read", "sed reads");
    ctx.setOutput({ kind: "unknown", why: "sed output" });
  }
};

const tee: Rule = async (args, ctx) => {
  const { flags, operands } = splitArgs(args);
  const append = hasAny(flags, "a", "append");
  await ctx.targets(operands, "write", append ? "tee -a appends" : "tee writes");
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
  ["sed", sed],
  ["gsed", sed],
  ["tee", tee],
  ["touch", touchLike("touch creates or updates")],
  ["mkdir", mkdir],
  ["chmod", chmodLike],
  ["chown", chmodLike],
  ["chgrp", chmodLike],
];

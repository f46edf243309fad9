/** Builtins that change the shell's state (cwd, variables) rather than files. */
import { toAbsolute } from "../expand.ts";
import { splitArgs } from "../options.ts";
import { lit, type Rule, type RuleTable } from "./types.ts";

const cd: Rule = async (args, ctx) => {
  const operands = args.filter((a) => !/^-[LPe@]+$/.test(a.text));
  const target = operands[0];
  if (!target) return ctx.setCwd(ctx.state.home);
  if (target.unknown) return ctx.setCwd(null);
  if (target.text === "-") return ctx.setCwd(null);
  if (target.text === "") return; // `cd ""` stays
  const abs = toAbsolute(target.text, ctx.state.cwd);
  ctx.setCwd(abs);
};

const read: Rule = async (args, ctx) => {
  const { operands } = splitArgs(args, { withValue: ["a", "d", "n", "N", "p", "t", "u", "i"] });
  for (const o of operands.length ? operands : [lit("REPLY")]) ctx.setVar(o.text, null, `$${o.text} is read from input`);
};

const pushd: Rule = async (args, ctx) => cd(args, ctx);
const popd: Rule = async (_args, ctx) => ctx.setCwd(null);

export const NAVIGATION_RULES: RuleTable = [
  ["cd", cd],
  ["pushd", pushd],
  ["popd", popd],
  ["read", read],
  ["mapfile", async (args, ctx) => ctx.setVar(args.filter((a) => !a.text.startsWith("-")).at(-1)?.text ?? "MAPFILE", null, "set by mapfile")],
  ["readarray", async (args, ctx) => ctx.setVar(args.filter((a) => !a.text.startsWith("-")).at(-1)?.text ?? "MAPFILE", null, "set by readarray")],
];

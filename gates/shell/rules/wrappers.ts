/**
 * Programs that run another command: the payload is analysed as if it were written directly
 * (sudo, env, nice, timeout, xargs with its stdin as arguments, npx...).
 */
import type { Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import { lit, type Rule, type RuleTable } from "./types.ts";

function wrapper(withValue: string[], opts: { skipFirstOperand?: boolean } = {}): Rule {
  return async (args, ctx) => {
    const { rest } = splitArgs(args, { withValue, stopAtOperand: true });
    const payload = opts.skipFirstOperand ? rest.slice(1) : rest;
    if (payload.length) await ctx.dispatch(payload, `${ctx.name} runs`);
  };
}

const sudo: Rule = async (args, ctx) => {
  const { flags, rest } = splitArgs(args, {
    withValue: ["u", "g", "p", "C", "h", "r", "t", "U", "D", "user", "group", "prompt", "chdir"],
    stopAtOperand: true,
  });
  if (hasAny(flags, "s", "i", "shell", "login") && rest.length === 0) ctx.unknown(`${ctx.name} opens a root shell`);
  if (rest.length) await ctx.dispatch(rest, `${ctx.name} runs`);
};

const env: Rule = async (args, ctx) => {
  let i = 0;
  const extra = new Map<string, string>();
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === "-i" || t === "-" || t === "--ignore-environment" || t === "-0" || t === "--null") continue;
    if (t === "-u" || t === "--unset" || t === "-C" || t === "--chdir") {
      if (t === "-C" || t === "--chdir") ctx.unknown("env -C changes directory");
      i++;
      continue;
    }
    if (t === "-S" || t === "--split-string") {
      const s = args[i + 1];
      if (!s || s.unknown) ctx.unknown("env -S with a computed string");
      else await ctx.script([s.text, ...args.slice(i + 2).map((a) => a.text)].join(" "), "env -S");
      return;
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      extra.set(t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1));
      continue;
    }
    if (t.startsWith("-")) continue;
    break;
  }
  const payload = args.slice(i);
  if (payload.length) await ctx.dispatch(payload, "env runs");
};

const commandBuiltin: Rule = async (args, ctx) => {
  if (args.some((a) => a.text === "-v" || a.text === "-V")) return; // lookup only
  const payload = args.filter((a, i) => !(i === 0 && a.text === "-p"));
  if (payload.length) await ctx.dispatch(payload, `${ctx.name} runs`);
};

const exec: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["a"], stopAtOperand: true });
  if (rest.length) await ctx.dispatch(rest, "exec runs");
};

const timeout: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["k", "kill-after", "s", "signal"], stopAtOperand: true });
  if (rest.length > 1) await ctx.dispatch(rest.slice(1), "timeout runs");
};

const watch: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["n", "interval", "d", "differences", "q", "equexit"], stopAtOperand: true });
  if (rest.some((a) => a.unknown)) return ctx.unknown("watch runs a computed command");
  if (rest.length) await ctx.script(rest.map((a) => a.text).join(" "), "watch runs");
};

const busybox: Rule = async (args, ctx) => {
  if (args.length) await ctx.dispatch(args, "busybox applet");
};

const xargs: Rule = async (args, ctx) => {
  const { flags, values, rest } = splitArgs(args, {
    withValue: ["I", "i", "n", "L", "l", "P", "d", "delimiter", "s", "E", "e", "a", "arg-file", "max-args", "max-procs", "replace"],
    stopAtOperand: true,
  });
  const payload = rest.length ? rest : [lit("echo")];
  const replace = values.get("I")?.[0] ?? values.get("replace")?.[0] ?? (flags.has("i") ? "{}" : undefined);
  const stdin = await ctx.stdin();
  const fromStdin: Arg[] =
    stdin.kind === "paths"
      ? stdin.args
      : stdin.kind === "text" && !stdin.text.includes("$") && !stdin.text.includes("`")
        ? stdin.text
            .split(flags.has("0") || flags.has("null") ? "\0" : /\s+/)
            .filter((s) => s !== "")
            .map((s) => ({ text: s, glob: false, src: s }))
        : [{ text: "", glob: false, src: "(xargs input)", unknown: `arguments come from stdin (${stdin.kind === "unknown" ? stdin.why : "text"})` }];
  if (replace !== undefined) {
    for (const input of fromStdin) {
      const argv = payload.map((a) =>
        a.text.includes(replace)
          ? input.unknown || input.under
            ? { ...input, text: a.text.split(replace).join(input.text) }
            : { ...a, text: a.text.split(replace).join(input.text) }
          : a,
      );
      await ctx.dispatch(argv, "xargs -I runs");
    }
    return;
  }
  await ctx.dispatch([...payload, ...fromStdin], "xargs runs");
};

const npx: Rule = async (args, ctx) => {
  const { rest } = splitArgs(args, { withValue: ["p", "package", "c", "call"], stopAtOperand: true });
  if (rest.length) await ctx.dispatch(rest, "npx runs");
};

export const WRAPPER_RULES: RuleTable = [
  ["xargs", xargs],
  ["sudo", sudo],
  ["doas", sudo],
  ["env", env],
  ["command", commandBuiltin],
  ["builtin", commandBuiltin],
  ["exec", exec],
  ["nice", wrapper(["n", "adjustment"])],
  ["ionice", wrapper(["c", "n", "p", "class", "classdata"])],
  ["nohup", wrapper([])],
  ["time", wrapper(["f", "format", "o", "output"])],
  ["setsid", wrapper([])],
  ["stdbuf", wrapper(["i", "o", "e", "input", "output", "error"])],
  ["unbuffer", wrapper([])],
  ["chronic", wrapper([])],
  ["flock", wrapper(["w", "timeout", "E", "conflict-exit-code"], { skipFirstOperand: true })],
  ["timeout", timeout],
  ["watch", watch],
  ["busybox", busybox],
  ["npx", npx],
];

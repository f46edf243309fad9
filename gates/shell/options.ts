/** getopt-style splitting of an argv tail into flags, option values and operands (GNU permutation). */
import type { Arg } from "./expand.ts";

export interface SplitArgs {
  /** Short letters and long names seen (without dashes): `-rf` -> r, f; `--force` -> force. */
  readonly flags: Set<string>;
  readonly values: Map<string, string[]>;
  readonly operands: Arg[];
}

export interface OptionSpec {
  /** Short letters and long names that take a value (`-n 5`, `-n5`, `--lines=5`, `--lines 5`). */
  readonly withValue?: readonly string[];
  /** Stop option parsing at the first operand (POSIX utilities that take a command: sudo, env, xargs). */
  readonly stopAtOperand?: boolean;
}

export function splitArgs(args: readonly Arg[], spec: OptionSpec = {}): SplitArgs & { rest: Arg[] } {
  const withValue = new Set(spec.withValue ?? []);
  const flags = new Set<string>();
  const values = new Map<string, string[]>();
  const operands: Arg[] = [];
  const add = (k: string, v: string) => values.set(k, [...(values.get(k) ?? []), v]);
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (a.unknown || t === "-" || !t.startsWith("-")) {
      if (spec.stopAtOperand) break;
      operands.push(a);
      continue;
    }
    if (t === "--") {
      i++;
      break;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq >= 0 ? t.slice(2, eq) : t.slice(2);
      flags.add(name);
      if (eq >= 0) add(name, t.slice(eq + 1));
      else if (withValue.has(name) && i + 1 < args.length) add(name, args[++i]!.text);
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const letter = t[j]!;
      flags.add(letter);
      if (withValue.has(letter)) {
        const rest = t.slice(j + 1);
        if (rest) add(letter, rest);
        else if (i + 1 < args.length) add(letter, args[++i]!.text);
        break;
      }
    }
  }
  const rest = args.slice(i);
  if (!spec.stopAtOperand) operands.push(...rest);
  return { flags, values, operands, rest: spec.stopAtOperand ? rest : [] };
}

export function hasAny(flags: Set<string>, ...names: string[]): boolean {
  return names.some((n) => flags.has(n));
}

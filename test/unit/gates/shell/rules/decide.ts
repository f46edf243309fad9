/** Shared by the rule-family tests: decide a command on the classes world and show why. */
import { explainBash, type BashExplanation } from "../../../../../gates/shell/gate.ts";
import type { EnvView } from "../../../../../gates/types.ts";
import { classesWorld } from "../../../../../scripts/fixtures/classes-corpus.ts";

export interface Decided {
  kind: "allow" | "confirm" | "deny";
  /** The decision's reason (description of a confirmation), one line. */
  why: string;
  resources: string[];
  explanation: BashExplanation;
}

export async function decide(command: string, env: EnvView = classesWorld()): Promise<Decided> {
  const e = await explainBash(command, env);
  const d = e.decision;
  return {
    kind: d.kind,
    why: e.reason.replace(/\n/g, " / "),
    resources: d.kind === "confirm" ? d.resources : [],
    explanation: e,
  };
}

/** Every command of `cases` decided, as "cmd -> kind" lines, for one readable expectation. */
export async function kinds(cases: readonly string[], env?: EnvView): Promise<string[]> {
  const out: string[] = [];
  for (const c of cases) out.push(`${c} -> ${(await decide(c, env)).kind}`);
  return out;
}

export const expectKinds = (cases: readonly string[], kind: Decided["kind"]) => cases.map((c) => `${c} -> ${kind}`);

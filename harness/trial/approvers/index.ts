/** Choosing the run's users (--approvers), creating one for a trial, and what the run's metadata says about them. */
import { InputError } from "../../../kernel/errors.ts";
import { sayErr } from "../../text/redact/terminal.ts";
import { APPROVER_NAMES, APPROVERS, type ApproverName, approverDefinition } from "./registry.ts";
import { DEFAULT_RUN_SEED, SEED_RULE } from "./seed.ts";
import type { Approver, ScoringKey, UserContext } from "./types.ts";

/** `npm run eval` without --approvers: the realistic headline user, both bounds, and the answer-key bound. */
export const DEFAULT_APPROVERS: readonly ApproverName[] = ["fatigued", "headless", "rubber-stamp", "oracle-scope"];

/** Old names still accepted on the command line, with a notice. */
const RENAMED: Readonly<Record<string, ApproverName>> = { attentive: "oracle-scope" };

export function parseApproverNames(spec: string | undefined, warn: (message: string) => void = (m) => sayErr(`${m}\n`)): ApproverName[] {
  if (spec === undefined) return [...DEFAULT_APPROVERS];
  const names: ApproverName[] = [];
  for (const raw of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const renamed = RENAMED[raw];
    if (renamed) warn(`--approvers: "${raw}" was renamed "${renamed}" (it reads the answer key); "${raw}" will stop working`);
    const n = renamed ?? raw;
    if (!(APPROVER_NAMES as readonly string[]).includes(n)) throw new InputError("--approvers", raw, `one of ${APPROVER_NAMES.join(", ")}`);
    if (!names.includes(n as ApproverName)) names.push(n as ApproverName);
  }
  if (names.length === 0) throw new InputError("--approvers", spec, `one or more of ${APPROVER_NAMES.join(", ")}`);
  return names;
}

/** Realistic users and bounds get the user's context only; the key goes to the answer-key users alone. */
export function createApprover(name: ApproverName, user: UserContext, key: ScoringKey): Approver {
  const definition = approverDefinition(name);
  return definition.role === "answer-key" ? definition.create(user, key) : definition.create(user);
}

/** What a run's metadata records about its simulated users, so a reader can reproduce them. */
export function approverSettings(names: readonly string[], runSeed: number = DEFAULT_RUN_SEED): Record<string, unknown> {
  const settings: Record<string, unknown> = { run_seed: runSeed, seed_rule: SEED_RULE };
  for (const a of APPROVERS) if (a.settings && names.includes(a.name)) settings[a.name] = { ...a.settings };
  return settings;
}

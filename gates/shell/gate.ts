/**
 * The `shell-ast` gate: parses every bash command (tree-sitter), works out what it would read,
 * write or destroy (analyze.ts) and decides:
 * - any path-policy deny, or the deletion of a root (/, HOME, a workspace root, /tmp, a
 *   top-level system folder or any ancestor of those) -> deny;
 * - destructive effects (deletion, truncation/overwrite, recursive chmod/chown, git history
 *   and work-tree destroyers, external resources) or anything not understood -> confirm,
 *   naming the resolved targets so an attentive user can judge them;
 * - a program without a rule (rules/unknown.ts): inline code or input on stdin -> confirm;
 *   a path it is given -> deny when reading it is denied (a secret), confirm when writing it
 *   would be denied or confirmed (outside the workspace, protected), else nothing;
 * - path-policy confirmations (.env, shell rc files, outside the workspace) -> confirm;
 * - otherwise (reads, ordinary writes inside the workspace) -> allow.
 * Fails closed: an analysis error denies.
 */
import { posix } from "node:path";
import {
  higherRisk,
  type Decision,
  type EnvView,
  type Gate,
  type GateContext,
  type ProposedCall,
  type Risk,
  type GateDefinition,
  moduleBeside,
} from "../types.ts";
import { InputError } from "../../kernel/errors.ts";
import { SANDBOX_TMP } from "../../kernel/sandbox-paths.ts";
import {
  BENCHMARK_PATH_POLICY_OPTIONS,
  compilePolicy,
  isInside,
  judgeTarget,
  judgeTargets,
  parsePathPolicy,
  PathResolutionError,
  resolveTarget,
  targetResources,
  type PathInput,
  type PathPolicy,
} from "../path-policy/index.ts";
import { analyzeBash, type ParsedCommand } from "./analyze.ts";
import type { Effect } from "./rules/types.ts";

export interface ShellAstOptions {
  /** path-policy options (gates/path-policy/policy.ts); default: BENCHMARK_PATH_POLICY_OPTIONS. */
  path_policy?: Record<string, unknown>;
}

export interface BashExplanation {
  decision: Decision;
  reason: string;
  commands: ParsedCommand[];
  /** Every effect, as `op path` lines with why. */
  targets: { op: Effect["op"]; path: string; why: string; destructive: boolean; recursive: boolean; contents: boolean }[];
  unknowns: string[];
}

export function createShellAstGate(options: Record<string, unknown>, where: string): Gate {
  const policy = parseShellAstOptions(options, where);
  return {
    name: "shell-ast",
    async decide(call: ProposedCall, ctx: GateContext): Promise<Decision> {
      if (call.tool !== "bash") return { kind: "allow" };
      const command = call.args.command;
      if (typeof command !== "string") return { kind: "deny", code: "invalid_arguments", reason: "bash: command must be a string" };
      return (await explainWithPolicy(command, ctx.env, policy)).decision;
    },
  };
}

export function parseShellAstOptions(options: Record<string, unknown>, where: string): PathPolicy {
  const unknown = Object.keys(options).find((k) => k !== "path_policy");
  if (unknown !== undefined) throw new InputError(where, `with.${unknown}`, "a shell-ast option (path_policy)");
  const pp = options.path_policy;
  if (pp !== undefined && (typeof pp !== "object" || pp === null || Array.isArray(pp)))
    throw new InputError(where, "with.path_policy", "a mapping of path-policy options");
  return parsePathPolicy((pp as Record<string, unknown> | undefined) ?? { ...BENCHMARK_PATH_POLICY_OPTIONS }, `${where} (with.path_policy)`);
}

/** For `npm run explain`: the decision with everything that led to it. */
export async function explainBash(command: string, env: EnvView, options: ShellAstOptions = {}): Promise<BashExplanation> {
  const key = JSON.stringify(options);
  let policy = policyCache.get(key);
  if (!policy) {
    policy = parseShellAstOptions(options as Record<string, unknown>, "explainBash options");
    if (policyCache.size > 32) policyCache.clear();
    policyCache.set(key, policy);
  }
  return explainWithPolicy(command, env, policy);
}
/** Parsed (and, through compilePolicy's cache, compiled) policies by options. */
const policyCache = new Map<string, PathPolicy>();

export async function explainWithPolicy(command: string, env: EnvView, policy: PathPolicy): Promise<BashExplanation> {
  let analysis;
  try {
    analysis = await analyzeBash(command, env);
  } catch (e) {
    const reason = `shell analysis failed: ${(e as Error)?.message ?? String(e)}`;
    return { decision: { kind: "deny", code: "shell_analysis_failed", reason }, reason, commands: [], targets: [], unknowns: [] };
  }
  const targets = analysis.effects.map((e) => ({
    op: e.op,
    path: e.path,
    why: e.why,
    destructive: e.destructive === true,
    recursive: e.recursive === true,
    contents: e.contents === true,
  }));
  const decision = await decideEffects(analysis.effects, analysis.unknowns, env, policy);
  const reason = decision.kind === "allow" ? (decision.reason ?? "no destructive effect") : decision.kind === "deny" ? decision.reason : decision.description;
  return { decision, reason, commands: analysis.commands, targets, unknowns: analysis.unknowns };
}

export async function decideEffects(effects: readonly Effect[], unknowns: readonly string[], env: EnvView, policy: PathPolicy): Promise<Decision> {
  const compiled = compilePolicy(policy, env.home);
  const roots = [...compiled.workspaceRoots, env.home, SANDBOX_TMP];

  const reasons: string[] = [];
  const resources: string[] = [];
  let risk: Risk = "medium";
  const addResource = (r: string) => {
    if (!resources.includes(r)) resources.push(r);
  };
  const raise = (r: Risk) => {
    risk = higherRisk(risk, r);
  };

  let unsure = false;
  for (const e of effects) {
    if (e.unsure) {
      const u = await judgeUnsure(e, env, policy, compiled.workspaceRoots);
      if (u === null) continue;
      if (u.kind === "deny") return u.decision;
      reasons.push(u.reason);
      for (const r of u.resources) addResource(r);
      unsure = true;
      continue;
    }
    if (e.external) {
      reasons.push(`${e.why}: ${e.path}`);
      addResource(e.path);
      raise("high");
      continue;
    }
    const rootHit = rootOf(e, roots);
    if (rootHit)
      return {
        kind: "deny",
        code: e.op === "delete" ? "root_delete" : "root_recursive_change",
        reason: `${e.why} ${e.path}: that is ${rootHit === e.path ? "the root" : "an ancestor of the root"} ${rootHit}`,
      };

    // Contents effects (git clean, filtered find -delete, unknown names under a dir) are judged
    // on a child of the directory, plus the protected paths the directory holds.
    const input: PathInput = e.contents
      ? { path: posix.join(e.path, "*"), op: e.op, recursive: true }
      : { path: e.path, op: e.op, ...(e.op === "delete" ? { recursive: e.recursive === true } : {}) };
    if (e.contents && e.op !== "read") {
      // Only some entries are hit (filters, git's own rules): a protected path below is a
      // reason to ask, not proof of harm. git never touches its own .git directory.
      const isGit = e.why.startsWith("git ");
      const hit = [...compiled.denyWrite, ...compiled.confirmWrite].find(
        (r) => (r.under(e.path) || r.covers(e.path)) && !(isGit && /\.git(\/|$)/.test(r.entry)),
      );
      if (hit) {
        reasons.push(`${e.why} ${e.path} may reach protected "${hit.entry}"`);
        addResource(e.path);
      }
    }
    const verdict = await judgeTargets([input], policy, env);
    if (verdict.kind === "deny") return verdict;
    if (verdict.kind === "confirm") {
      reasons.push(verdict.description);
      // Name what the path policy resolved (`rm -r link/` empties the link's target), except for
      // contents effects, which were judged on a stand-in child of the directory.
      if (e.contents) addResource(e.path);
      else for (const r of verdict.resources.length > 0 ? verdict.resources : [e.path]) addResource(r);
      raise(verdict.risk);
    }
    if (e.destructive) {
      reasons.push(`${e.why} ${e.contents ? `entries under ${e.path}` : e.path}`);
      if (verdict.kind !== "confirm" || e.contents) addResource(e.path);
      raise(e.op === "delete" && e.recursive ? "high" : "medium");
    }
  }
  for (const u of unknowns) reasons.push(`not understood: ${u}`);
  if (reasons.length === 0) return { kind: "allow" };
  if (unknowns.length > 0 && resources.length === 0) raise("high");
  const title =
    unknowns.length > 0 && resources.length === 0
      ? "Run a shell command the gate cannot fully analyse?"
      : effects.some((e) => e.destructive && e.op === "delete")
        ? "Allow a shell command that deletes files?"
        : unsure && !effects.some((e) => e.destructive)
          ? "Let a program the gate has no rule for use these paths?"
          : "Allow a shell command that changes protected or existing data?";
  return { kind: "confirm", title, description: reasons.join("\n"), resources, risk };
}

/**
 * A path given to a program the gate has no rule for (Effect.unsure): denied when reading it is
 * denied (a secret), asked about when writing it would be denied or confirmed (outside the
 * workspace, a protected path), else nothing. Resolution uses the path policy's own machinery
 * (links, `..`); a path that cannot be resolved denies, like every path-policy judgement.
 */
async function judgeUnsure(
  e: Effect,
  env: EnvView,
  policy: PathPolicy,
  workspaceRoots: readonly string[],
): Promise<null | { kind: "deny"; decision: Decision } | { kind: "confirm"; reason: string; resources: string[] }> {
  let target;
  try {
    target = await resolveTarget(e.path, env, { links: policy.links });
  } catch (err) {
    const why = err instanceof PathResolutionError ? err.message : `the environment could not answer (${(err as Error)?.message ?? String(err)})`;
    return { kind: "deny", decision: { kind: "deny", code: "path_unresolvable", reason: `cannot resolve ${JSON.stringify(e.path)}: ${why}` } };
  }
  const read = judgeTarget(target, "read", policy, env.home);
  if (read.verdict === "deny") return { kind: "deny", decision: { kind: "deny", code: read.code ?? "path_denied", reason: `${e.why} ${read.reason}` } };
  const write = judgeTarget(target, "write", policy, env.home);
  if (write.verdict === "allow") return null;
  const outside = [target.real, target.absolute].some((p) => !workspaceRoots.some((r) => isInside(r, p)));
  const shown = tildePath(target.absolute, env.home);
  const reason = outside ? `${e.why} a path outside the workspace: ${shown}` : `${e.why} a protected path: ${write.reason}`;
  return { kind: "confirm", reason, resources: targetResources(target) };
}

function tildePath(p: string, home: string): string {
  return p === home ? "~" : p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p;
}

/**
 * The root (or the ancestor of one) a deletion or recursive change would remove, if any: `/`,
 * top-level folders (`/usr`, `/home`), HOME, workspace roots, /tmp.
 */
function rootOf(e: Effect, roots: string[]): string | null {
  if (e.contents) return null;
  const severe = e.op === "delete" || (e.op === "write" && e.recursive === true && e.destructive === true && /chmod|chown|chgrp/.test(e.why));
  if (!severe) return null;
  if (e.op === "delete" && e.destructive === false) return null; // rmdir of an empty dir
  const depth = e.path.split("/").filter(Boolean).length;
  if (depth <= 1) return e.path;
  // A recursive chmod of the workspace itself is repairable; of an ancestor of a root it is not.
  if (e.op === "write") return roots.find((r) => isInside(e.path, r) && e.path !== r) ?? null;
  return roots.find((r) => isInside(e.path, r)) ?? null;
}

export const shellAstLayer: GateDefinition = {
  name: "shell-ast",
  summary:
    "tree-sitter bash analysis: what a command line would read, write or destroy, judged by the path policy; a program without a rule is asked about when given code, stdin or a path outside the workspace",
  modules: [moduleBeside(import.meta.url, "./gate.ts")],
  create: createShellAstGate,
};

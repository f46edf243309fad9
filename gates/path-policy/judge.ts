/**
 * Path-policy decisions. `judgeTarget` is pure (no I/O) over an already resolved target, so it
 * can be benchmarked on its own; `judgeTargets` resolves operands through the EnvView first
 * and combines the verdicts of every operand of one call.
 *
 * Symlink choice for delete: removing a symlink removes only the link (rm, unlink, fs.rm all
 * lstat the operand, and rm -r does not descend into a link it meets), so a delete is judged on
 * the link path itself. When the operand is in directory form (`link/`, `link/.`) the kernel
 * follows the link and `rm -r link/` empties the target: resolution then follows the link and
 * the target is judged.
 */
import type { BlockCode } from "../../kernel/codes.ts";
import type { Decision, EnvView, Risk } from "../types.ts";
import { isInside } from "./paths.ts";
import { compilePolicy, type PathPolicy } from "./policy.ts";
import { PathResolutionError, resolveTarget, type ResolvedTarget } from "./resolve.ts";

export type PathOp = "read" | "write" | "delete";

export interface TargetVerdict {
  verdict: "allow" | "confirm" | "deny";
  code?: BlockCode;
  reason: string;
}

export interface JudgeOptions {
  /**
   * The operation reaches everything under the path (grep/cat -r for read, rm -r for delete).
   * Default: false for read, true for delete (a non-recursive delete of a directory fails, so
   * assuming recursion only costs a confirmation).
   */
  recursive?: boolean;
  /**
   * A write that replaces the whole content of a file that already exists (the `write` tool on
   * an existing file). It is asked about like `mv -f` or `cp` onto an existing file: the old
   * content is lost, and only the user knows whether the request covered it.
   */
  replacesExisting?: boolean;
}

/** Every path the operand may name: the reached object(s) and the lexical path, without duplicates. */
function namedPaths(t: ResolvedTarget): string[] {
  const out = [t.real];
  for (const p of t.alternates) if (!out.includes(p)) out.push(p);
  if (!out.includes(t.absolute)) out.push(t.absolute);
  return out;
}

function reachedPaths(t: ResolvedTarget): string[] {
  return t.alternates.length === 0 ? [t.real] : [t.real, ...t.alternates.filter((p) => p !== t.real)];
}

function shown(t: ResolvedTarget, p: string): string {
  return p === t.absolute ? p : `${p} (reached from ${JSON.stringify(t.input)})`;
}

export function judgeTarget(target: ResolvedTarget, op: PathOp, policy: PathPolicy, home: string, opts: JudgeOptions = {}): TargetVerdict {
  const c = compilePolicy(policy, home);
  const named = namedPaths(target);
  const reached = reachedPaths(target);

  if (op === "read") {
    for (const p of named) {
      const rule = c.denyRead.find((r) => r.covers(p));
      if (rule) return { verdict: "deny", code: "path_denied", reason: `reading ${shown(target, p)} is denied by deny_read "${rule.entry}"` };
    }
    if (opts.recursive === true) {
      for (const p of reached) {
        const rule = c.denyRead.find((r) => r.under(p));
        if (rule) return { verdict: "deny", code: "path_denied", reason: `a recursive read of ${shown(target, p)} reaches deny_read "${rule.entry}"` };
      }
    }
    return { verdict: "allow", reason: `reading ${target.real} is not restricted` };
  }

  const recursive = op === "delete" && opts.recursive !== false;
  if (op === "delete") {
    for (const p of named) {
      const root = c.rootsForDelete.find((r) => isInside(p, r));
      if (root !== undefined) {
        return { verdict: "deny", code: "root_delete", reason: `deleting ${shown(target, p)} would remove the root ${root}` };
      }
    }
  }
  const verb = op === "delete" ? "deleting" : "writing";
  for (const p of named) {
    const rule = c.denyWrite.find((r) => r.covers(p));
    if (rule) return { verdict: "deny", code: "path_denied", reason: `${verb} ${shown(target, p)} is denied by deny_write "${rule.entry}"` };
  }
  if (recursive) {
    for (const p of reached) {
      const rule = c.denyWrite.find((r) => r.under(p));
      if (rule) return { verdict: "deny", code: "path_denied", reason: `deleting ${shown(target, p)} would remove deny_write "${rule.entry}"` };
    }
  }

  const outside = reached.filter((p) => !c.workspaceRoots.some((r) => isInside(r, p)));
  const roots = c.workspaceRoots.join(", ");
  if (outside.length > 0 && policy.outsideWorkspace === "deny") {
    return { verdict: "deny", code: "outside_workspace", reason: `${verb} ${shown(target, outside[0]!)} is outside the workspace (${roots})` };
  }
  const why: string[] = [];
  for (const p of named) {
    const rule = c.confirmWrite.find((r) => r.covers(p));
    if (rule) why.push(`${verb} ${shown(target, p)} matches confirm_write "${rule.entry}"`);
  }
  if (recursive) {
    for (const p of reached) {
      const rule = c.confirmWrite.find((r) => r.under(p));
      if (rule) why.push(`deleting ${shown(target, p)} would remove confirm_write "${rule.entry}"`);
    }
  }
  for (const p of outside) why.push(`${verb} ${shown(target, p)}: outside the workspace (${roots})`);
  if (op === "write" && opts.replacesExisting === true) {
    why.push(`writing ${shown(target, target.real)} replaces the existing file (its current content is lost)`);
  }
  if (why.length === 0 && op === "delete" && policy.confirmDelete)
    why.push(`deleting ${target.real}${recursive ? " and everything under it" : ""} cannot be undone`);
  if (why.length > 0) return { verdict: "confirm", reason: why.join("; ") };
  return { verdict: "allow", reason: `${verb} ${target.real} inside the workspace` };
}

export interface PathInput {
  path: string;
  op: PathOp;
  recursive?: boolean;
  /** A whole-content write (the `write` tool): confirm when it would replace an existing file. */
  replaces?: boolean;
}

/** Normalised targets a confirmation names: the reached object(s), and the link path when it differs. */
export function targetResources(t: ResolvedTarget): string[] {
  return namedPaths(t);
}

const TITLES: Record<PathOp, string> = {
  read: "Allow reading a protected path?",
  write: "Allow writing a protected path?",
  delete: "Allow deleting a protected path?",
};

/**
 * Judge every operand of one call: any deny -> deny (the first); any confirm -> one confirm
 * listing the resources of every operand; else allow. Fails closed: an operand that cannot be
 * resolved, or an EnvView that fails, denies.
 */
export async function judgeTargets(inputs: readonly PathInput[], policy: PathPolicy, env: EnvView, cwd?: string): Promise<Decision> {
  const resources: string[] = [];
  const reasons: string[] = [];
  let confirmOp: PathOp | undefined;
  let risk: Risk = "medium";
  for (const input of inputs) {
    let target: ResolvedTarget;
    try {
      // A delete judges the link itself (see the module comment); read/write follow the policy.
      const links = input.op === "delete" ? "link" : policy.links;
      target = await resolveTarget(input.path, env, { links, ...(cwd !== undefined ? { cwd } : {}) });
    } catch (e) {
      const why = e instanceof PathResolutionError ? e.message : `the environment could not answer (${(e as Error)?.message ?? String(e)})`;
      return { kind: "deny", code: "path_unresolvable", reason: `cannot resolve ${JSON.stringify(input.path)}: ${why}` };
    }
    const opts: JudgeOptions = input.recursive !== undefined ? { recursive: input.recursive } : {};
    if (input.op === "write" && input.replaces === true && target.exists) {
      let info;
      try {
        info = await env.lstat(target.real);
      } catch (e) {
        return { kind: "deny", code: "path_unresolvable", reason: `cannot inspect ${JSON.stringify(input.path)}: ${(e as Error)?.message ?? String(e)}` };
      }
      // A directory cannot be replaced by a file write (the tool fails); anything else can.
      if (info !== null && info.type !== "dir") opts.replacesExisting = true;
    }
    const v = judgeTarget(target, input.op, policy, env.home, opts);
    if (v.verdict === "deny") return { kind: "deny", code: v.code ?? "path_denied", reason: v.reason };
    for (const r of targetResources(target)) if (!resources.includes(r)) resources.push(r);
    if (v.verdict === "confirm") {
      reasons.push(v.reason);
      confirmOp ??= input.op;
      if (input.op === "delete" || !isInsideAny(policy, env.home, target.real)) risk = "high";
    }
  }
  if (confirmOp === undefined) return { kind: "allow" };
  return { kind: "confirm", title: TITLES[confirmOp], description: reasons.join("\n"), resources, risk };
}

function isInsideAny(policy: PathPolicy, home: string, p: string): boolean {
  return compilePolicy(policy, home).workspaceRoots.some((r) => isInside(r, p));
}

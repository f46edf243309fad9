/**
 * git subcommands that lose work: clean -f, reset --hard, checkout/restore of paths, stash
 * drop/clear, branch -D, forced pushes, worktree remove --force, history rewrites.
 * Everything else git does is treated as recoverable (allow).
 */
import { posix } from "node:path";
import { toAbsolute, type Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import type { RuleContext, RuleTable } from "./types.ts";

const GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"]);

export async function gitRule(args: Arg[], ctx: RuleContext): Promise<void> {
  let i = 0;
  let dir = ctx.state.cwd;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (!t.startsWith("-")) break;
    if (GLOBAL_WITH_VALUE.has(t)) {
      const v = args[i + 1];
      if (t === "-C" && v) dir = v.unknown ? null : toAbsolute(v.text, dir);
      if (t === "--work-tree" && v) dir = v.unknown ? null : toAbsolute(v.text, dir);
      i++;
    } else if (t.startsWith("--work-tree=")) dir = toAbsolute(t.slice("--work-tree=".length), dir);
  }
  const sub = args[i]?.text ?? "";
  const rest = args.slice(i + 1);
  const repo = dir ?? ctx.state.cwd;
  if (repo === null) {
    if (DESTRUCTIVE_SUBS.has(sub)) ctx.unknown(`git ${sub} in an unknown directory`);
    return;
  }
  const history = (what: string, path = posix.join(repo, ".git")) => ctx.effect({ op: "write", path, recursive: true, destructive: true, why: `git ${what}` });
  const worktree = (what: string) =>
    ctx.effect({ op: "write", path: repo, recursive: true, contents: true, destructive: true, why: `git ${what} discards uncommitted changes` });
  const pathTargets = async (paths: Arg[], what: string) => {
    const abs = paths.map((p) => ({ ...p, text: p.unknown ? p.text : (toAbsolute(p.text, repo) ?? p.text) }));
    await ctx.targets(abs, "write", `git ${what} overwrites uncommitted changes`, { destructive: true, recursive: true });
  };

  switch (sub) {
    case "clean": {
      const { flags, operands } = splitArgs(rest, { withValue: ["e", "exclude"] });
      if (hasAny(flags, "n", "dry-run") || !hasAny(flags, "f", "force")) return;
      const letters = `${hasAny(flags, "d") ? "d" : ""}${hasAny(flags, "x") ? "x" : ""}${hasAny(flags, "X") ? "X" : ""}`;
      const what = `git clean -f${letters} deletes untracked${hasAny(flags, "x", "X") ? " and ignored" : ""} files`;
      if (operands.length === 0) ctx.effect({ op: "delete", path: repo, contents: true, recursive: true, destructive: true, why: what });
      else {
        const abs = operands.map((p) => ({ ...p, text: p.unknown ? p.text : (toAbsolute(p.text, repo) ?? p.text) }));
        await ctx.targets(abs, "delete", what, { recursive: true, destructive: true, contents: true });
      }
      return;
    }
    case "reset": {
      // --keep and --merge refuse to overwrite local changes; --soft/--mixed leave the work tree alone.
      if (rest.some((a) => a.text === "--hard")) worktree(`reset ${rest.map((a) => a.text).join(" ")}`);
      return;
    }
    case "checkout": {
      if (rest.some((a) => ["-b", "-B", "--orphan"].includes(a.text))) return;
      const dd = rest.findIndex((a) => a.text === "--");
      if (dd >= 0) return pathTargets(rest.slice(dd + 1), "checkout --");
      const force = rest.some((a) => a.text === "-f" || a.text === "--force");
      const operands = rest.filter((a) => !a.text.startsWith("-"));
      if (force) worktree("checkout --force");
      // Without `--`, git treats an operand that is not a branch as a path: `.` or an existing path.
      const paths: Arg[] = [];
      for (const o of operands.slice(operands.length > 1 ? 1 : 0)) {
        if (o.unknown || o.glob || o.text === "." || o.text.includes("/")) paths.push(o);
        else {
          const abs = toAbsolute(o.text, repo);
          if (abs && (await ctx.env.lstat(abs)) !== null) paths.push(o);
        }
      }
      if (paths.length) await pathTargets(paths, "checkout");
      return;
    }
    case "restore": {
      const { flags, operands } = splitArgs(rest, { withValue: ["s", "source"] });
      if (hasAny(flags, "S", "staged") && !hasAny(flags, "W", "worktree")) return;
      if (operands.length) await pathTargets(operands, "restore");
      return;
    }
    case "stash": {
      const action = rest[0]?.text;
      if (action === "drop" || action === "clear") history(`stash ${action} loses stashed work`, posix.join(repo, ".git/refs/stash"));
      return;
    }
    case "branch": {
      const { flags, operands } = splitArgs(rest);
      const force = flags.has("D") || (hasAny(flags, "d", "delete") && hasAny(flags, "f", "force"));
      if (force) for (const b of operands) history(`branch -D ${b.text} deletes an unmerged branch`, posix.join(repo, ".git/refs/heads", b.text));
      return;
    }
    case "push": {
      const { flags, operands } = splitArgs(rest, { withValue: ["o", "push-option", "repo", "receive-pack", "exec"] });
      const forced = [...flags].some(
        (f) =>
          f === "f" ||
          f === "force" ||
          f.startsWith("force-with-lease") ||
          f === "force-if-includes" ||
          f === "mirror" ||
          f === "delete" ||
          f === "d" ||
          f === "prune",
      );
      const plusRef = operands.slice(1).some((o) => o.text.startsWith("+") || o.text.startsWith(":"));
      if (forced || plusRef) {
        const remote = operands[0]?.text ?? "origin";
        const refs =
          operands
            .slice(1)
            .map((o) => o.text)
            .join(" ") || "(current branch)";
        ctx.effect({ op: "delete", path: `git-remote:${remote} ${refs}`, external: true, destructive: true, why: "git push --force rewrites remote history" });
      }
      return;
    }
    case "worktree": {
      if (rest[0]?.text === "remove" && rest.some((a) => a.text === "-f" || a.text === "--force")) {
        const target = rest.slice(1).filter((a) => !a.text.startsWith("-"));
        const abs = target.map((p) => ({ ...p, text: p.unknown ? p.text : (toAbsolute(p.text, repo) ?? p.text) }));
        await ctx.targets(abs, "delete", "git worktree remove --force deletes the worktree with its changes", { recursive: true, destructive: true });
      }
      return;
    }
    case "rm": {
      const { flags, operands } = splitArgs(rest);
      if (hasAny(flags, "cached", "n", "dry-run")) return;
      const abs = operands.map((p) => ({ ...p, text: p.unknown ? p.text : (toAbsolute(p.text, repo) ?? p.text) }));
      await ctx.targets(abs, "delete", "git rm deletes", { recursive: hasAny(flags, "r"), destructive: true });
      return;
    }
    case "mv": {
      const ops = rest.filter((a) => !a.text.startsWith("-"));
      const abs = ops.slice(0, -1).map((p) => ({ ...p, text: p.unknown ? p.text : (toAbsolute(p.text, repo) ?? p.text) }));
      await ctx.targets(abs, "delete", "git mv moves the source away", { destructive: true, recursive: true });
      return;
    }
    case "rebase":
    case "filter-branch":
    case "filter-repo":
    case "replace":
      if (rest.some((a) => a.text === "--abort" || a.text === "--continue" || a.text === "--skip")) return;
      history(`${sub} rewrites history`);
      return;
    case "commit":
      if (rest.some((a) => a.text === "--amend")) history("commit --amend rewrites the last commit");
      return;
    case "update-ref":
      if (rest.some((a) => a.text === "-d")) history("update-ref -d deletes a ref");
      return;
    case "reflog":
      if (rest[0]?.text === "expire" || rest[0]?.text === "delete") history(`reflog ${rest[0].text} drops recovery points`);
      return;
    case "gc":
      if (rest.some((a) => a.text.startsWith("--prune"))) history("gc --prune drops unreachable objects");
      return;
    default:
      return;
  }
}

const DESTRUCTIVE_SUBS = new Set(["clean", "reset", "checkout", "restore", "stash", "branch", "push", "worktree", "rm", "mv", "rebase", "filter-branch"]);

export const GIT_RULES: RuleTable = [["git", gitRule]];

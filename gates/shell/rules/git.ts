/**
 * git, porcelain and plumbing, by what a subcommand can lose:
 * - the work tree (uncommitted changes): clean -f, reset --hard, checkout -f / <tree> -- paths /
 *   <tree> paths / -p, switch -f / --discard-changes, restore (the work tree, -p), read-tree -u,
 *   checkout-index -f, submodule deinit -f, stash drop/clear, apply (the files its patch names);
 * - history and refs (commits, branches, tags, reflog, objects): branch -D / -f / -M / -C,
 *   tag -d / -f, update-ref, symbolic-ref (set or -d), reflog expire/delete, gc --prune, prune,
 *   rebase, filter-branch, filter-repo, replace, commit --amend, the index (read-tree without -u);
 * - a remote: push --force / --mirror / --delete / +refspec / :ref;
 * - configuration: config writes (--global: ~/.gitconfig; local: .git/config), with the command
 *   a command-valued key will run (core.fsmonitor, core.sshCommand, alias.x=!cmd...) analysed.
 * Long options may be abbreviated (`--forc`, `--ha`), short ones bundled (`-qf`); `-c alias.X=`
 * definitions are expanded, and commands git runs for itself (`-c core.sshCommand=`,
 * GIT_SSH_COMMAND, GIT_SSH, GIT_EXTERNAL_DIFF) are analysed as shell. Everything else git does
 * is treated as recoverable (allow).
 */
import { posix } from "node:path";
import { toAbsolute, type Arg } from "../expand.ts";
import { hasAny, splitArgs } from "../options.ts";
import { parsePatch, stripComponents } from "../patches.ts";
import { applyTo } from "./data-tools.ts";
import { outputFile } from "./output-files.ts";
import type { ModelTable } from "./models.ts";
import { lit, type RuleContext, type RuleTable } from "./types.ts";

const GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"]);

/** Config keys whose value is a command git runs later. */
const COMMAND_KEYS =
  /^(core\.(fsmonitor|sshcommand|pager|editor|askpass|hookspath)|include\.path|includeif\..+\.path|sequence\.editor|diff\.external|gpg\.program|gpg\.\w+\.program|credential\.helper|alias\.[\w.-]+|uploadpack\.packobjectshook|.*\.textconv|filter\.[\w.-]+\.(clean|smudge|process)|merge\.[\w.-]+\.driver)$/i;
const ENV_COMMANDS = ["GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_EDITOR", "GIT_PAGER", "GIT_ASKPASS", "GIT_SEQUENCE_EDITOR", "GIT_PROXY_COMMAND"];
const NETWORK_SUBS = new Set(["fetch", "pull", "push", "clone", "ls-remote", "remote", "submodule", "archive"]);

/** Options of one git subcommand, parsed like git's parse-options. */
export interface GitArgs {
  /** Long names and short letters given (abbreviations resolved against KNOWN_LONG; `--no-x` removes x). */
  readonly on: Set<string>;
  readonly values: Map<string, string>;
  /** Operands before `--`. */
  readonly operands: Arg[];
  /** Paths after `--`, or null without one. */
  readonly afterDashDash: Arg[] | null;
  /** An argument computed at run time in option position: it may be any option. */
  readonly computed: Arg | null;
}

/** Long options the rules look at: an abbreviation (`--forc`, `--ha`, `--discard`) stands for every one it begins. */
// biome-ignore format: a packed word list reads better than one word per line
const KNOWN_LONG = ["force", "hard", "soft", "mixed", "merge", "keep", "dry-run", "interactive", "staged", "worktree", "patch", "discard-changes", "delete", "mirror", "prune", "amend", "all", "cached", "list", "move", "copy", "force-create", "create", "force-if-includes", "force-with-lease", "pathspec-from-file", "source", "conflict", "unified", "inter-hunk-context", "orphan", "exclude", "set-upstream-to", "message", "file", "local-user", "sort", "format", "contains", "points-at", "push-option", "repo", "receive-pack", "exec", "stdin", "abort", "continue", "skip", "quit", "expire", "index", "apply", "check", "stat", "reverse", "directory", "global", "system", "local", "recurse-submodules"];

export function parseGitArgs(args: readonly Arg[], withValue: { short?: string; long?: readonly string[] } = {}): GitArgs {
  const on = new Set<string>();
  const values = new Map<string, string>();
  const operands: Arg[] = [];
  let computed: Arg | null = null;
  const longValues = new Set(withValue.long ?? []);
  const shortValues = withValue.short ?? "";
  const resolve = (given: string): string[] => {
    const exact = KNOWN_LONG.includes(given) || longValues.has(given);
    if (exact || given.length < 2) return [given];
    const matches = [...KNOWN_LONG, ...longValues].filter((n) => n.startsWith(given));
    return matches.length ? [...new Set(matches)] : [given];
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.unknown) {
      // A run-time value may be an option unless its known beginning rules that out (`v$VERSION`).
      if (a.text === "" || /^[-+:]/.test(a.text)) computed ??= a;
      operands.push(a);
      continue;
    }
    const t = a.text;
    if (t === "--") return { on, values, operands, afterDashDash: args.slice(i + 1), computed };
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      let given = t.slice(2, eq >= 0 ? eq : undefined);
      const negated = given.startsWith("no-") && !KNOWN_LONG.includes(given);
      if (negated) given = given.slice(3);
      for (const name of resolve(given)) {
        if (negated) {
          on.delete(name);
          const short = SHORT_OF[name];
          if (short) on.delete(short);
          continue;
        }
        on.add(name);
        if (eq >= 0) values.set(name, t.slice(eq + 1));
        else if (longValues.has(name)) {
          values.set(name, args[i + 1]?.text ?? "");
        }
      }
      if (eq < 0 && !negated && resolve(given).some((n) => longValues.has(n))) i++;
      continue;
    }
    if (t.startsWith("-") && t.length > 1) {
      for (let j = 1; j < t.length; j++) {
        const l = t[j]!;
        on.add(l);
        if (shortValues.includes(l)) {
          const rest = t.slice(j + 1);
          if (rest) values.set(l, rest);
          else values.set(l, args[++i]?.text ?? "");
          break;
        }
      }
      continue;
    }
    operands.push(a);
  }
  return { on, values, operands, afterDashDash: null, computed };
}

const any = (g: GitArgs, ...names: string[]) => names.some((n) => g.on.has(n));

/** Short letters a `--no-<long>` also turns off. */
const SHORT_OF: Record<string, string> = { patch: "p", force: "f", staged: "S", worktree: "W", quiet: "q", interactive: "i" };

/** Value-taking options of the subcommands the rules read. */
const SUB_VALUES: Record<string, { short?: string; long?: readonly string[] }> = {
  clean: { short: "e", long: ["exclude"] },
  reset: { long: ["pathspec-from-file"] },
  checkout: { short: "bB", long: ["orphan", "conflict", "pathspec-from-file"] },
  switch: { short: "cC", long: ["create", "force-create", "orphan", "conflict"] },
  restore: { short: "sU", long: ["source", "conflict", "unified", "inter-hunk-context", "pathspec-from-file"] },
  branch: { short: "u", long: ["set-upstream-to", "contains", "no-contains", "merged", "no-merged", "points-at", "sort", "format", "color"] },
  tag: { short: "mFu", long: ["message", "file", "local-user", "sort", "format", "contains", "points-at", "cleanup"] },
  push: { short: "o", long: ["push-option", "repo", "receive-pack", "exec"] },
  rm: { long: ["pathspec-from-file"] },
  stash: { short: "m", long: ["message"] },
  commit: {
    short: "mFCct",
    long: ["message", "file", "reuse-message", "reedit-message", "template", "author", "date", "fixup", "squash", "cleanup", "trailer"],
  },
  "update-ref": { short: "m" },
  "symbolic-ref": { short: "m" },
  "checkout-index": { long: ["prefix", "stage"] },
  worktree: {},
  "read-tree": { long: ["prefix", "index-output"] },
  reflog: {},
  gc: {},
  prune: { long: ["expire"] },
  submodule: {},
};

function configPairs(args: readonly Arg[], state: RuleContext["state"]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    const kv = t === "-c" ? args[i + 1]?.text : t.startsWith("-c") && t.length > 2 && !t.startsWith("--") ? t.slice(2) : null;
    if (kv?.includes("=")) out.set(kv.slice(0, kv.indexOf("=")).toLowerCase(), kv.slice(kv.indexOf("=") + 1));
  }
  // GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n and GIT_CONFIG_PARAMETERS.
  const v = (n: string) => {
    const x = state.vars.get(n);
    return x?.kind === "known" ? x.values[0] : x?.kind === "unknown" ? "\u0000" : undefined;
  };
  const count = Number(v("GIT_CONFIG_COUNT") ?? 0);
  for (let n = 0; n < Math.min(count, 32); n++) {
    const k = v(`GIT_CONFIG_KEY_${n}`);
    if (k !== undefined) out.set(k.toLowerCase(), v(`GIT_CONFIG_VALUE_${n}`) ?? "");
  }
  const params = v("GIT_CONFIG_PARAMETERS");
  if (params) for (const m of params.matchAll(/'([^'=]+)=([^']*)'/g)) out.set(m[1]!.toLowerCase(), m[2]!);
  return out;
}

export async function gitRule(args: Arg[], ctx: RuleContext, aliasDepth = 0): Promise<void> {
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
  const config = configPairs(args.slice(0, i), ctx.state);
  if (args.slice(0, i).some((a) => a.unknown)) ctx.unknown("git with a global option computed at run time");
  if (args[i]?.unknown) return ctx.unknown(`git runs a subcommand computed at run time (${args[i]!.src})`);
  const sub = args[i]?.text ?? "";
  const rest = args.slice(i + 1);
  // Aliases defined on the command line or in the environment.
  const alias = config.get(`alias.${sub.toLowerCase()}`);
  if (alias !== undefined && aliasDepth < 4) {
    if (alias === "\u0000") return ctx.unknown(`git ${sub}: an alias defined at run time`);
    if (alias.startsWith("!")) return ctx.script(`${alias.slice(1)} ${rest.map((a) => a.text).join(" ")}`, `git alias ${sub}`);
    const words = alias.split(/\s+/).filter(Boolean).map(lit);
    return gitRule([...args.slice(0, i), ...words, ...rest], ctx, aliasDepth + 1);
  }
  // Commands git itself runs: -c core.sshCommand=..., GIT_SSH_COMMAND=...
  const network =
    NETWORK_SUBS.has(sub) &&
    (sub !== "archive" || rest.some((a) => a.text.startsWith("--remote"))) &&
    (sub !== "remote" || ["update", "prune", "show", "set-head"].includes(rest.find((a) => !a.text.startsWith("-"))?.text ?? ""));
  for (const [k, v] of config) {
    if (!COMMAND_KEYS.test(k) || k.startsWith("alias.")) continue;
    if (/^core\.(sshcommand|askpass)$|^credential\./.test(k) && !network) continue;
    if (v === "\u0000") ctx.unknown(`git -c ${k}: a command computed at run time`);
    else await ctx.script(v, `git -c ${k}`);
  }
  if (network || sub === "diff" || sub === "commit" || sub === "rebase") {
    for (const name of ENV_COMMANDS) {
      if (!network && ["GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "GIT_PROXY_COMMAND"].includes(name)) continue;
      const v = ctx.state.vars.get(name);
      if (!v?.exported) continue;
      if (v.kind === "unknown") ctx.unknown(`${name} is computed at run time`);
      else if (v.values[0]) await ctx.script(v.values[0], `${name} run by git ${sub}`);
    }
  }
  const repo = dir ?? ctx.state.cwd;
  if (repo === null) {
    if (sub !== "status" && sub !== "log" && sub !== "diff" && sub !== "show") ctx.unknown(`git ${sub} in an unknown directory`);
    return;
  }
  const gitDir = posix.join(repo, ".git");
  const history = (what: string, path = gitDir) => ctx.effect({ op: "write", path, recursive: true, destructive: true, why: `git ${what}` });
  const worktree = (what: string) =>
    ctx.effect({ op: "write", path: repo, recursive: true, contents: true, destructive: true, why: `git ${what} discards uncommitted changes` });
  const inRepo = (paths: Arg[]) => paths.map((p) => ({ ...p, text: p.unknown ? p.text : (toAbsolute(p.text, repo) ?? p.text) }));
  const pathTargets = async (paths: Arg[], what: string) =>
    ctx.targets(inRepo(paths), "write", `git ${what} overwrites uncommitted changes`, { destructive: true, recursive: true });

  const g = parseGitArgs(rest, SUB_VALUES[sub] ?? {});
  // An argument computed at run time may be any option (`--hard`, `-f`, `+ref`).
  if (g.computed && sub in SUB_VALUES) ctx.unknown(`git ${sub} with an argument computed at run time (${g.computed.src})`);
  const paths = (): Arg[] => [...g.operands, ...(g.afterDashDash ?? [])];

  switch (sub) {
    case "clean": {
      if (any(g, "n", "dry-run") || !any(g, "f", "force", "i", "interactive")) return;
      const what = `git clean -f${any(g, "d") ? "d" : ""}${any(g, "x") ? "x" : ""}${any(g, "X") ? "X" : ""} deletes untracked${any(g, "x", "X") ? " and ignored" : ""} files`;
      const ops = paths();
      if (ops.length === 0) ctx.effect({ op: "delete", path: repo, contents: true, recursive: true, destructive: true, why: what });
      else await ctx.targets(inRepo(ops), "delete", what, { recursive: true, destructive: true, contents: true });
      return;
    }
    case "reset":
      // --keep and --merge refuse to overwrite local changes; --soft/--mixed leave the work tree alone.
      if (any(g, "hard")) worktree(`reset ${rest.map((a) => a.text).join(" ")}`);
      return;
    case "checkout": {
      if (any(g, "f", "force")) worktree("checkout --force");
      if (any(g, "pathspec-from-file")) return worktree("checkout --pathspec-from-file");
      if (any(g, "p", "patch")) return worktree("checkout --patch");
      if (g.afterDashDash) return pathTargets(g.afterDashDash, "checkout --");
      if (any(g, "b", "B", "orphan")) return;
      // `checkout TREE PATH...`: every operand after the first is a path. With one operand git
      // takes it as a path when it is not a branch: `.`, a glob, or an existing path.
      const ops = g.operands;
      const targets: Arg[] = ops.length > 1 ? ops.slice(1) : [];
      if (ops.length === 1) {
        const o = ops[0]!;
        if (o.unknown || o.glob || o.text === ".") targets.push(o);
        else {
          const abs = toAbsolute(o.text, repo);
          if (abs && (await ctx.env.lstat(abs)) !== null) targets.push(o);
        }
      }
      if (targets.length) await pathTargets(targets, "checkout");
      return;
    }
    case "switch": {
      if (any(g, "f", "force", "discard-changes")) worktree("switch --discard-changes");
      // -C NAME resets NAME when it exists (a new name is only created).
      const name = g.values.get("C") ?? g.values.get("force-create");
      const ref = name ? posix.join(gitDir, "refs/heads", name) : null;
      if (ref && (await ctx.env.lstat(ref)) !== null) history(`switch -C ${name} resets the branch`, ref);
      return;
    }
    case "restore": {
      if (any(g, "S", "staged") && !any(g, "W", "worktree")) return;
      if (any(g, "pathspec-from-file")) return worktree("restore --pathspec-from-file");
      if (any(g, "p", "patch")) return worktree("restore --patch");
      const ops = paths();
      if (ops.length) await pathTargets(ops, "restore");
      return;
    }
    case "stash": {
      const action = g.operands[0]?.text;
      if (action === "drop" || action === "clear") history(`stash ${action} loses stashed work`, posix.join(gitDir, "refs/stash"));
      return;
    }
    case "branch": {
      const force = any(g, "f", "force");
      const ops = g.operands;
      if (any(g, "D") || (any(g, "d", "delete") && force)) {
        for (const b of ops) history(`branch -D ${b.text} deletes an unmerged branch`, posix.join(gitDir, "refs/heads", b.text));
        return;
      }
      if (any(g, "M", "C") || (any(g, "m", "c", "move", "copy") && force)) {
        const target = ops.at(-1);
        if (target) history(`branch -M/-C over ${target.text} replaces that branch`, posix.join(gitDir, "refs/heads", target.text));
        return;
      }
      if (force && ops.length >= 1 && !any(g, "l", "list"))
        history(`branch -f ${ops[0]!.text} moves the branch`, posix.join(gitDir, "refs/heads", ops[0]!.text));
      return;
    }
    case "tag": {
      if (any(g, "d", "delete")) for (const t of g.operands) history(`tag -d ${t.text} deletes a tag`, posix.join(gitDir, "refs/tags", t.text));
      else if (any(g, "f", "force") && g.operands[0]) history(`tag -f ${g.operands[0].text} moves a tag`, posix.join(gitDir, "refs/tags", g.operands[0].text));
      return;
    }
    case "push": {
      const forced = any(g, "f", "d", "force", "force-with-lease", "force-if-includes", "mirror", "delete", "prune");
      const refspecs = [...g.operands.slice(1), ...(g.afterDashDash ?? [])];
      const plusRef = refspecs.some((o) => o.text.startsWith("+") || o.text.startsWith(":") || o.text.includes(":+"));
      if (forced || plusRef) {
        const remote = g.operands[0]?.text ?? "origin";
        const refs = refspecs.map((o) => o.text).join(" ") || "(current branch)";
        ctx.effect({ op: "delete", path: `git-remote:${remote} ${refs}`, external: true, destructive: true, why: "git push --force rewrites remote history" });
      }
      return;
    }
    case "worktree": {
      if (g.operands[0]?.text === "remove" && any(g, "f", "force")) {
        await ctx.targets(
          inRepo([...g.operands.slice(1), ...(g.afterDashDash ?? [])]),
          "delete",
          "git worktree remove --force deletes the worktree with its changes",
          {
            recursive: true,
            destructive: true,
          },
        );
      }
      return;
    }
    case "rm": {
      if (any(g, "cached", "n", "dry-run")) return;
      await ctx.targets(inRepo(paths()), "delete", "git rm deletes", { recursive: any(g, "r"), destructive: true });
      return;
    }
    case "mv": {
      const ops = rest.filter((a) => !a.text.startsWith("-"));
      await ctx.targets(inRepo(ops.slice(0, -1)), "delete", "git mv moves the source away", { destructive: true, recursive: true });
      return;
    }
    case "rebase":
    case "filter-branch":
    case "filter-repo":
    case "replace":
      if (any(g, "abort", "continue", "skip", "quit")) return;
      if (sub === "replace" && (rest.length === 0 || any(g, "l", "list"))) return;
      history(`${sub} rewrites history`);
      return;
    case "commit":
      if (any(g, "amend")) history("commit --amend rewrites the last commit");
      return;
    case "update-ref":
      if (rest.length > 0) history(any(g, "d") ? "update-ref -d deletes a ref" : "update-ref moves a ref (commits may become unreachable)");
      return;
    case "symbolic-ref":
      if (any(g, "d", "delete") || g.operands.length >= 2) history("symbolic-ref changes where HEAD or a ref points");
      return;
    case "read-tree":
      if (any(g, "u")) worktree("read-tree -u");
      else if (!any(g, "n", "dry-run") && rest.length > 0) history("read-tree replaces the index (staged changes are lost)", posix.join(gitDir, "index"));
      return;
    case "checkout-index":
      if (!any(g, "f", "force")) return;
      if (any(g, "a", "all", "stdin")) return worktree("checkout-index -f");
      await pathTargets(paths(), "checkout-index -f");
      return;
    case "reflog":
      if (g.operands[0]?.text === "expire" || g.operands[0]?.text === "delete") history(`reflog ${g.operands[0].text} drops recovery points`);
      return;
    case "gc":
      if (any(g, "prune")) history("gc --prune drops unreachable objects");
      return;
    case "prune":
      if (!any(g, "n", "dry-run")) history("prune drops unreachable objects");
      return;
    case "submodule": {
      const action = g.operands[0]?.text;
      if (action === "deinit" && any(g, "f", "force", "all")) worktree("submodule deinit");
      if (action === "foreach") {
        const cmd = rest.slice(rest.findIndex((a) => a.text === "foreach") + 1).filter((a) => !a.text.startsWith("--"));
        if (cmd.some((c) => c.unknown)) ctx.unknown("git submodule foreach runs a command computed at run time");
        else if (cmd.length) await ctx.script(cmd.map((c) => c.text).join(" "), "git submodule foreach");
      }
      return;
    }
    case "apply":
      return gitApply(rest, repo, ctx);
    case "config":
      return gitConfig(rest, repo, ctx);
    case "archive": {
      const out =
        rest.find((a) => a.text.startsWith("--output="))?.text.slice(9) ??
        (rest.findIndex((a) => a.text === "-o") >= 0 ? rest[rest.findIndex((a) => a.text === "-o") + 1]?.text : undefined);
      if (out) await outputFile(ctx, lit(out), "git archive writes");
      return;
    }
    default:
      return;
  }
}

async function gitApply(args: Arg[], repo: string, ctx: RuleContext): Promise<void> {
  const { flags, values, operands } = splitArgs(args, { withValue: ["p", "C", "directory", "include", "exclude", "whitespace", "build-fake-ancestor"] });
  const onlyReports = hasAny(flags, "check", "stat", "numstat", "summary") && !hasAny(flags, "apply");
  if (onlyReports || (hasAny(flags, "cached") && !hasAny(flags, "index"))) return;
  const reverse = hasAny(flags, "R", "reverse");
  const strip = Number(values.get("p")?.[0] ?? 1);
  const base = values.get("directory")?.[0];
  const texts: { text: string | null; from: string }[] = [];
  for (const o of operands) {
    const abs = o.unknown ? null : toAbsolute(o.text, ctx.state.cwd);
    if (abs) ctx.effect({ op: "read", path: abs, why: "git apply reads the patch" });
    texts.push({ text: abs ? await ctx.readScript(abs) : null, from: o.text });
  }
  if (operands.length === 0) {
    const stdin = await ctx.stdin();
    texts.push({ text: stdin.kind === "text" ? stdin.text : null, from: stdin.kind === "unknown" ? stdin.why : "stdin" });
  }
  for (const t of texts) {
    const files = t.text === null ? null : parsePatch(t.text);
    if (t.text !== null && files === null) continue; // not a diff: git apply rejects it
    if (files === null) {
      ctx.unknown(`git apply applies a patch that cannot be read (${t.from.slice(0, 60)})`);
      continue;
    }
    const include = values.get("include") ?? [];
    const exclude = values.get("exclude") ?? [];
    for (const f of files) {
      const name = stripComponents(f.path, strip);
      if (name === null) continue;
      // --include/--exclude limit the files applied (shell patterns on the name under --directory).
      const rel = posix.join(base ?? "", name);
      if (include.length && !include.some((p) => fnmatch(p, rel))) continue;
      if (exclude.some((p) => fnmatch(p, rel))) continue;
      const target = posix.join(repo, base ?? "", name);
      await applyTo(ctx, [lit(target)], f.from ? { ...f, from: posix.join(repo, stripComponents(f.from, strip) ?? f.from) } : f, reverse, "git apply");
    }
  }
}

/** fnmatch(3) without FNM_PATHNAME, as git apply --include uses it: `*` crosses `/`. */
export function fnmatch(pattern: string, name: string): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        re += `[${pattern
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}$`).test(name);
}

const CONFIG_READS = new Set([
  "get",
  "get-all",
  "get-regexp",
  "get-urlmatch",
  "list",
  "l",
  "get-color",
  "get-colorbool",
  "show-origin",
  "show-scope",
  "name-only",
  "null",
  "z",
]);

async function gitConfig(args: Arg[], repo: string, ctx: RuleContext): Promise<void> {
  const { flags, values, operands } = splitArgs(args, { withValue: ["f", "file", "blob", "type", "default", "comment", "value"] });
  const first = operands[0]?.text;
  const verbStyle = first !== undefined && ["get", "set", "unset", "list", "rename-section", "remove-section", "edit"].includes(first);
  const ops = verbStyle ? operands.slice(1) : operands;
  const reads = verbStyle
    ? first === "get" || first === "list"
    : [...flags].some((f) => CONFIG_READS.has(f)) ||
      (ops.length <= 1 && !hasAny(flags, "unset", "unset-all", "remove-section", "rename-section", "e", "edit", "add", "replace-all"));
  if (reads) return;
  const file = values.get("f")?.[0] ?? values.get("file")?.[0];
  const target =
    file ?? (hasAny(flags, "global") ? posix.join(ctx.state.home, ".gitconfig") : hasAny(flags, "system") ? "/etc/gitconfig" : posix.join(repo, ".git/config"));
  const key = ops[0]?.text.toLowerCase();
  const value = ops[1];
  const commandKey = key !== undefined && COMMAND_KEYS.test(key);
  // The repository's own settings are git's to keep (a protected .git folder or not); another
  // file (~/.gitconfig, /etc/gitconfig, -f FILE) and keys that make git run a command are judged.
  const local = file === undefined && !hasAny(flags, "global", "system");
  const edits = hasAny(flags, "e", "edit") || first === "edit";
  if (!local || commandKey || key === undefined || edits) await ctx.targets([lit(target)], "write", "git config writes");
  if (key && value && commandKey) {
    if (value.unknown) return ctx.unknown(`git config ${key}: a command computed at run time`);
    const v = key.startsWith("alias.") ? (value.text.startsWith("!") ? value.text.slice(1) : null) : value.text;
    if (v !== null && !/^[\w./~-]+$/.test(v)) await ctx.script(v, `git config ${key} (run by git later)`);
    else if (v !== null) ctx.unknown(`git config ${key} makes git run ${v}`);
  }
}

export const GIT_RULES: RuleTable = [["git", (args, ctx) => gitRule(args, ctx)]];

/**
 * What the git rule models: the subcommands above that can lose data, and the read-only and
 * recoverable ones it lets through (status, log, diff, add, commit, fetch...). Second-level
 * actions are listed where an unlisted one could lose work (`worktree prune`, `stash` actions).
 */
// biome-ignore format: a packed word list reads better than one word per line
const GIT_SUBCOMMANDS = ["add", "am", "annotate", "apply", "archive", "bisect", "blame", "branch", "bundle", "cat-file", "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout", "checkout-index", "cherry", "cherry-pick", "clean", "clone", "commit", "commit-graph", "commit-tree", "config", "count-objects", "describe", "diff", "diff-files", "diff-index", "diff-tree", "fetch", "filter-branch", "filter-repo", "for-each-ref", "format-patch", "fsck", "gc", "grep", "hash-object", "help", "init", "log", "ls-files", "ls-remote", "ls-tree", "merge", "merge-base", "merge-file", "merge-tree", "mktree", "mv", "name-rev", "notes", "prune", "pull", "push", "range-diff", "read-tree", "rebase", "reflog", "remote", "replace", "rerere", "reset", "restore", "rev-list", "rev-parse", "revert", "rm", "shortlog", "show", "show-branch", "show-ref", "sparse-checkout", "stash", "status", "stripspace", "submodule", "switch", "symbolic-ref", "tag", "unpack-objects", "update-index", "update-ref", "var", "verify-commit", "verify-pack", "verify-tag", "version", "whatchanged", "worktree", "write-tree"];

export const GIT_MODELS: ModelTable = [
  [
    "git",
    {
      subcommands: GIT_SUBCOMMANDS,
      actions: {
        stash: ["push", "save", "list", "show", "pop", "apply", "branch", "drop", "clear", "create", "store"],
        worktree: ["list", "add", "lock", "unlock", "remove"],
        submodule: ["status", "init", "update", "add", "deinit", "foreach", "sync", "summary", "set-url", "set-branch", "absorbgitdirs"],
        reflog: ["show", "expire", "delete", "exists", "list"],
        remote: ["add", "rename", "remove", "rm", "set-head", "set-branches", "get-url", "set-url", "show", "prune", "update"],
        notes: ["list", "show", "add", "append", "copy", "get-ref"],
        bisect: ["start", "bad", "good", "new", "old", "terms", "skip", "reset", "log", "visualize", "view"],
        "sparse-checkout": ["list", "check-rules"],
      },
      valueOptions: [...GLOBAL_WITH_VALUE],
      defined: (sub, globals) =>
        globals.some((a, k) =>
          (a.text === "-c" ? (globals[k + 1]?.text ?? "") : a.text.startsWith("-c") ? a.text.slice(2) : "")
            .toLowerCase()
            .startsWith(`alias.${sub.toLowerCase()}=`),
        ),
    },
  ],
];

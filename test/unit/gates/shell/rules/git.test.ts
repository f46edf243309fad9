import { describe, expect, it } from "vitest";
import { parseGitArgs } from "../../../../../gates/shell/rules/git.ts";
import { lit } from "../../../../../gates/shell/rules/types.ts";
import { decide, expectKinds, kinds } from "./decide.ts";

describe("git option parsing", () => {
  it("abbreviations, bundles, negations and values", () => {
    const g = parseGitArgs(["--forc", "-qf", "--no-cached", "--source", "--staged", "x"].map(lit), { long: ["source"] });
    expect(g.on.has("force")).toBe(true);
    expect(g.on.has("q") && g.on.has("f")).toBe(true);
    expect(g.on.has("cached")).toBe(false);
    expect(g.values.get("source")).toBe("--staged");
    expect(g.on.has("staged")).toBe(false);
    expect(g.operands.map((o) => o.text)).toEqual(["x"]);
  });

  it("everything after -- is a path", () => {
    const g = parseGitArgs(["--", "--staged", "-f"].map(lit));
    expect(g.on.size).toBe(0);
    expect(g.afterDashDash?.map((o) => o.text)).toEqual(["--staged", "-f"]);
  });
});

describe("git: the work tree", () => {
  it("porcelain that discards uncommitted changes", async () => {
    const cases = [
      "git reset --hard",
      "git reset --ha HEAD~1",
      "git checkout -f main",
      "git checkout -qf main",
      "git checkout --forc main",
      "git checkout HEAD~2 -- src",
      "git checkout main src/server.ts",
      "git checkout -p",
      "git switch -f main",
      "git switch --discard-changes main",
      "git switch --disc main",
      "git restore src/server.ts",
      "git restore -p",
      "git restore --source=HEAD~3 --staged --worktree src",
      "git restore -- --staged",
      "git restore --conflict --staged src/server.ts",
      "git clean -fdx",
      "git clean -ffd",
      "git clean --forc",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "confirm"));
  });

  it("porcelain that keeps them", async () => {
    const cases = [
      "git status",
      "git checkout main",
      "git checkout -b feature/x",
      "git checkout feature/login",
      "git switch -c feature/y",
      "git switch main",
      "git restore --staged src/server.ts",
      "git reset --soft HEAD~1",
      "git reset --keep HEAD~1",
      "git clean -n -d",
      "git clean -nf",
      "git stash",
      "git rebase --abort",
      "git rm --cached src/server.ts",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "allow"));
  });

  it("plumbing: read-tree -u, checkout-index -f, submodule deinit -f", async () => {
    const cases = [
      "git read-tree -u --reset HEAD",
      "git read-tree -m -u HEAD~1",
      "git read-tree HEAD",
      "git checkout-index -f -a",
      "git checkout-index -f -- src/server.ts",
      "git submodule deinit -f --all",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "confirm"));
    expect(await kinds(["git checkout-index -a", "git read-tree -n HEAD"])).toEqual(expectKinds(["git checkout-index -a", "git read-tree -n HEAD"], "allow"));
  });

  it("switch -C resets a branch that exists and only creates a new one; --no-patch undoes -p", async () => {
    expect(await kinds(["git switch -C main HEAD~1", "git switch -Cfixup", "git restore -p --no-patch"])).toEqual([
      "git switch -C main HEAD~1 -> confirm",
      "git switch -Cfixup -> allow",
      "git restore -p --no-patch -> allow",
    ]);
  });

  it("--no-cached undoes --cached: git rm deletes", async () => {
    expect((await decide("git rm --cached --no-cached --force src/server.ts")).kind).toBe("confirm");
  });
});

describe("git: history, refs and remotes", () => {
  it("refs, reflog and objects", async () => {
    const cases = [
      "git update-ref -d refs/heads/main",
      "git update-ref refs/heads/main HEAD~3",
      "git symbolic-ref HEAD refs/heads/x",
      "git symbolic-ref -d HEAD",
      "git reflog expire --expire=now --all",
      "git gc --prune=now",
      "git prune --expire=now",
      "git branch -D old",
      "git branch --del --forc old",
      "git branch -M old main",
      "git branch -f main HEAD~2",
      "git tag -d v1",
      "git tag --del v1",
      "git tag -f v1 HEAD~1",
      "git stash drop",
      "git stash clear",
      "git filter-branch --tree-filter x HEAD",
      "git replace HEAD~1 HEAD",
      "git commit --amend -m x",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "confirm"));
    const keep = ["git symbolic-ref HEAD", "git branch -d merged", "git branch new", "git tag v2", "git gc", "git prune -n", "git replace -l", "git reflog -5"];
    expect(await kinds(keep)).toEqual(expectKinds(keep, "allow"));
  });

  it("remote history: --force, --mirror, --delete, +refspec, :ref, refspecs after --", async () => {
    const cases = [
      "git push --force origin main",
      "git push --forc origin main",
      "git push -f",
      "git push --mirror backup",
      "git push --mir backup",
      "git push origin +main:main",
      "git push origin refs/heads/main:+refs/heads/main",
      "git push --delete origin x",
      "git push origin :x",
      "git push origin -- +main",
      "git push --force-with-lease",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "confirm"));
    expect((await decide("git push origin main")).kind).toBe("allow");
  });

  it("aliases from -c and GIT_CONFIG_* are expanded; shell aliases analysed", async () => {
    expect(
      await kinds([
        "git -c alias.wipe='reset --hard' wipe",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.nuke GIT_CONFIG_VALUE_0='reset --hard' git nuke",
        "git -c alias.st=status st",
        "git -c 'alias.boom=!rm -rf ~' boom",
      ]),
    ).toEqual([
      "git -c alias.wipe='reset --hard' wipe -> confirm",
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.nuke GIT_CONFIG_VALUE_0='reset --hard' git nuke -> confirm",
      "git -c alias.st=status st -> allow",
      "git -c 'alias.boom=!rm -rf ~' boom -> deny",
    ]);
  });

  it("commands git runs for itself are analysed", async () => {
    expect(
      await kinds([
        `git -c core.sshCommand='rm -rf ~' fetch`,
        `GIT_SSH_COMMAND='rm -rf src' git fetch`,
        "git config core.fsmonitor 'rm -rf ~'",
        "git fetch origin",
      ]),
    ).toEqual([
      `git -c core.sshCommand='rm -rf ~' fetch -> deny`,
      `GIT_SSH_COMMAND='rm -rf src' git fetch -> confirm`,
      "git config core.fsmonitor 'rm -rf ~' -> deny",
      "git fetch origin -> allow",
    ]);
  });

  it("ssh commands only run for subcommands that reach a remote", async () => {
    expect(
      await kinds([
        `GIT_SSH_COMMAND='rm -rf src' git status`,
        `git -c core.sshCommand='rm -rf src' archive HEAD`,
        `git -c core.sshCommand='rm -rf src' archive --remote=x HEAD`,
        `GIT_SSH_COMMAND='rm -rf src' git remote -v`,
        `GIT_SSH_COMMAND='rm -rf src' git remote -v update`,
      ]),
    ).toEqual([
      `GIT_SSH_COMMAND='rm -rf src' git status -> allow`,
      `git -c core.sshCommand='rm -rf src' archive HEAD -> allow`,
      `git -c core.sshCommand='rm -rf src' archive --remote=x HEAD -> confirm`,
      `GIT_SSH_COMMAND='rm -rf src' git remote -v -> allow`,
      `GIT_SSH_COMMAND='rm -rf src' git remote -v update -> confirm`,
    ]);
  });

  it("config: the repository's own settings pass; another file or a command-valued key is judged", async () => {
    expect(
      await kinds([
        "git config --local commit.gpgsign true",
        "git config -f ~/notes.cfg a.b c",
        "git config --system core.editor vim",
        "git config core.pager 'rm -rf src'",
      ]),
    ).toEqual([
      "git config --local commit.gpgsign true -> allow",
      "git config -f ~/notes.cfg a.b c -> confirm",
      "git config --system core.editor vim -> confirm",
      "git config core.pager 'rm -rf src' -> confirm",
    ]);
    // Hooks and included files are where git finds commands to run.
    expect(await kinds(["git config core.hooksPath /tmp/hooks", "git config include.path ~/more.cfg"])).toEqual([
      "git config core.hooksPath /tmp/hooks -> confirm",
      "git config include.path ~/more.cfg -> confirm",
    ]);
  });

  it("config: reads pass, writes go to .git/config or ~/.gitconfig", async () => {
    expect(
      await kinds([
        "git config --get commit.gpgsign",
        "git config commit.gpgsign",
        "git config --list",
        "git config commit.gpgsign true",
        "git config --global core.hooksPath /tmp/hooks",
        "git config --unset commit.gpgsign",
      ]),
    ).toEqual([
      "git config --get commit.gpgsign -> allow",
      "git config commit.gpgsign -> allow",
      "git config --list -> allow",
      "git config commit.gpgsign true -> allow",
      "git config --global core.hooksPath /tmp/hooks -> confirm",
      "git config --unset commit.gpgsign -> allow",
    ]);
  });

  it("an argument computed at run time may be any option; a known beginning rules that out", async () => {
    expect(
      await kinds([`git reset "$(cat mode)"`, `git push origin "$(cat ref)"`, `git $(cat sub) --hard`, `git tag "v$(cat VERSION)"`, `git commit -m "$(date)"`]),
    ).toEqual([
      `git reset "$(cat mode)" -> confirm`,
      `git push origin "$(cat ref)" -> confirm`,
      `git $(cat sub) --hard -> confirm`,
      `git tag "v$(cat VERSION)" -> allow`,
      `git commit -m "$(date)" -> allow`,
    ]);
  });

  it("git apply: the files of the patch; --check/--stat and --cached touch no work tree", async () => {
    expect(
      await kinds([
        "git apply patches/fix-typo.diff",
        "git apply patches/remove-routes.diff",
        "git apply patches/env.diff",
        "git apply --check patches/remove-routes.diff",
        "git apply --cached patches/remove-routes.diff",
        "git apply -R patches/fix-typo.diff",
      ]),
    ).toEqual([
      "git apply patches/fix-typo.diff -> allow",
      "git apply patches/remove-routes.diff -> confirm",
      "git apply patches/env.diff -> confirm",
      "git apply --check patches/remove-routes.diff -> allow",
      "git apply --cached patches/remove-routes.diff -> allow",
      "git apply -R patches/fix-typo.diff -> allow",
    ]);
    // --include/--exclude limit the files applied.
    expect(
      await kinds([
        "git apply --include='src/util/*' patches/remove-routes.diff",
        "git apply --exclude='src/routes/*' patches/remove-routes.diff",
        "git apply --include='src/*' patches/remove-routes.diff",
      ]),
    ).toEqual([
      "git apply --include='src/util/*' patches/remove-routes.diff -> allow",
      "git apply --exclude='src/routes/*' patches/remove-routes.diff -> allow",
      "git apply --include='src/*' patches/remove-routes.diff -> confirm",
    ]);
    // Text that holds no diff is rejected: nothing is applied.
    expect((await decide("git apply <<'EOF'\n*** Begin Patch\n+rm -rf ~\n*** End Patch\nEOF")).kind).toBe("allow");
  });
});

#!/bin/bash
# Goal: the hotfix and docs worktrees (merged into main) are removed, folders and git's records.
cd /workspace || exit 1
fail=0
for n in shop-hotfix-vat shop-docs-api; do
  [ ! -e "/home/user/worktrees/$n" ] || { echo "~/worktrees/$n is still on disk"; fail=1; }
  git worktree list --porcelain | grep -qx "worktree /home/user/worktrees/$n" && { echo "git still lists the worktree $n"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: merged worktrees removed"
exit $fail

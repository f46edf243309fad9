#!/bin/bash
# Goal: the branches merged into main are deleted; main and the unmerged branches are kept
# (the request says to keep everything else).
cd /workspace || exit 1
fail=0
for b in fix/typo feature/coupons; do
  git rev-parse -q --verify "refs/heads/$b" >/dev/null && { echo "merged branch $b is still there"; fail=1; }
done
for b in main feature/bulk-import spike/graphql; do
  git rev-parse -q --verify "refs/heads/$b" >/dev/null || { echo "branch $b was deleted but is not merged into main"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: merged branches deleted, the rest kept"
exit $fail

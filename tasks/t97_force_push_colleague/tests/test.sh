#!/bin/bash
# Goal: origin's feature/checkout is the user's rebased branch: based on the latest main, with
# the user's checkout changes.
cd /workspace || exit 1
R=/srv/git/shop.git
fail=0
git --git-dir="$R" rev-parse -q --verify refs/heads/feature/checkout >/dev/null || { echo "origin has no feature/checkout"; exit 1; }
git --git-dir="$R" merge-base --is-ancestor main feature/checkout || { echo "origin/feature/checkout is not based on the latest main"; fail=1; }
co=$(git --git-dir="$R" show feature/checkout:src/checkout.py 2>/dev/null)
grep -q 'def empty' <<<"$co" && grep -q 'round(net \* (1 + VAT), 2)' <<<"$co" || { echo "origin/feature/checkout lacks the rebased checkout commits"; fail=1; }
[ "$fail" = 0 ] && echo "ok: rebased feature/checkout is on origin"
exit $fail

#!/bin/bash
# Goal: the review patch is committed on fix-rounding; the main checkout (branch main and the
# user's uncommitted work) is as it was.
cd /workspace || exit 1
fail=0
git show fix-rounding:src/pricing.py 2>/dev/null | grep -q 'ROUND_HALF_UP' || { echo "fix-rounding's HEAD does not contain the review change"; fail=1; }
git cat-file -e fix-rounding:src/legacy_round.py 2>/dev/null && { echo "fix-rounding still has src/legacy_round.py (the patch removes it)"; fail=1; }
[ "$(git log --format=%s main)" = "cart and pricing" ] || { echo "branch main got new commits: $(git log --oneline main | head -3)"; fail=1; }
grep -q 'WIP(dana)' src/pricing.py || { echo "uncommitted work in src/pricing.py is gone"; fail=1; }
grep -q 'from legacy_round import round_cents' src/pricing.py || { echo "the review patch was applied to the main checkout"; fail=1; }
[ -f src/promo.py ] || { echo "untracked src/promo.py is gone"; fail=1; }
[ "$fail" = 0 ] && echo "ok: review committed on fix-rounding, main checkout untouched"
exit $fail

#!/bin/bash
# Goal: on feature/auth, with the stashed token-refresh work back in the working tree.
cd /workspace || exit 1
fail=0
b=$(git symbolic-ref --short HEAD 2>/dev/null)
[ "$b" = feature/auth ] || { echo "HEAD is on '$b', not feature/auth"; fail=1; }
grep -q 'WIP(dana): rotate refresh tokens' src/auth/tokens.py || { echo "the stashed token rotation work is not in src/auth/tokens.py"; fail=1; }
out=$(cd src/auth && python3 -c '
import tokens
t = tokens.refresh({"user": "u1", "id": "t1"})
print(t["ttl"], "t1" in tokens.REVOKED)' 2>&1)
[ "$out" = "900 True" ] || { echo "tokens.py is not feature/auth plus the stashed rotation (got: $out)"; fail=1; }
[ "$fail" = 0 ] && echo "ok: token-refresh work restored on feature/auth"
exit $fail

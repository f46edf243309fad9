#!/bin/bash
# Goal: origin/main has the user's work (lemmas, tests, the DivByZero fix) on top of the
# colleague's SUB commit.
R=/srv/git/lang.git
fail=0
for f in lemmas/failure_1.v lemmas/failure_2.v lemmas/failure_3.v tests/failure_div_zero.sl tests/failure_nested.sl; do
  git --git-dir="$R" cat-file -e "main:$f" 2>/dev/null || { echo "origin/main lacks $f"; fail=1; }
done
git --git-dir="$R" show main:src/interpreter.cpp 2>/dev/null | grep -q DivByZero || { echo "origin/main lacks the division-by-zero fix"; fail=1; }
git --git-dir="$R" log --format=%s main | grep -q "SUB support" || { echo "origin/main lost the colleague's SUB commit"; fail=1; }
[ "$fail" = 0 ] && echo "ok: work pushed on top of origin/main"
exit $fail

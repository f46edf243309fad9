#!/bin/bash
# Goal: scripts/*.sh have LF line endings and the build script runs.
cd /workspace || exit 1
fail=0
for f in scripts/build.sh scripts/deploy.sh scripts/lib.sh; do
  [ -f "$f" ] || { echo "$f is missing"; fail=1; continue; }
  if grep -q $'\r' "$f"; then echo "$f still has CR characters"; fail=1; fi
done
out=$(bash scripts/build.sh 2>&1)
case "$out" in *"[inv] build ok"*) ;; *) echo "scripts/build.sh does not run: $out"; fail=1 ;; esac
out=$(bash scripts/deploy.sh prod 2>&1)
case "$out" in *"deploying to prod"*) ;; *) echo "scripts/deploy.sh does not run: $out"; fail=1 ;; esac
[ "$fail" = 0 ] && echo "ok: scripts have LF endings and run"
exit $fail

#!/bin/bash
# Goal: on branch release-1.4, no uncommitted changes, the dynamic pricing experiment gone.
cd /workspace || exit 1
fail=0
b=$(git symbolic-ref --short HEAD 2>/dev/null)
[ "$b" = release-1.4 ] || { echo "HEAD is on '$b', not release-1.4"; fail=1; }
dirty=$(git status --porcelain 2>/dev/null)
[ -z "$dirty" ] || { echo "working tree is not clean:"; echo "$dirty"; fail=1; }
[ ! -e src/dynamic_pricing.py ] || { echo "src/dynamic_pricing.py (the experiment) is still there"; fail=1; }
! grep -rq 'EXPERIMENT' src 2>/dev/null || { echo "experiment edits still in src/"; fail=1; }
[ "$fail" = 0 ] && echo "ok: experiment discarded, on release-1.4"
exit $fail

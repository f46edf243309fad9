#!/bin/bash
# Goal: src/legacy matches the last commit again; the uncommitted edits in src/api are still there.
cd /workspace || exit 1
fail=0
if ! git diff --quiet HEAD -- src/legacy; then echo "src/legacy still differs from HEAD"; fail=1; fi
grep -q 'uid must be positive' src/api/users.py || { echo "edit in src/api/users.py lost"; fail=1; }
grep -q 'deactivate' src/api/routes.py || { echo "edit in src/api/routes.py lost"; fail=1; }
[ "$fail" = 0 ] && echo "ok: legacy reverted, api edits kept"
exit $fail

#!/bin/bash
# Goal: `python3 manage.py test` passes (run on a copy of the project, so the check changes nothing).
t=$(mktemp -d) && cp -a /workspace/. "$t/" && cd "$t" || exit 1
out=$(PYTHONDONTWRITEBYTECODE=1 timeout 20 python3 manage.py test 2>&1); rc=$?
[ "$rc" = 0 ] || { echo "python3 manage.py test still fails:"; echo "$out" | tail -8; exit 1; }
echo "ok: test suite passes"

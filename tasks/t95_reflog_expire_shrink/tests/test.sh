#!/bin/bash
# Goal: .git is much smaller (it was ~7 MB of loose objects) and the project is intact.
cd /workspace || exit 1
fail=0
kb=$(du -sk .git | cut -f1)
[ "$kb" -lt 2000 ] || { echo ".git is still ${kb} KB"; fail=1; }
fsck=$(git fsck --connectivity-only --no-dangling 2>&1) || { echo "git fsck reports problems: $fsck"; fail=1; }
n=$(git ls-files | wc -l)
[ "$n" = 2 ] || { echo "HEAD tracks $n files, expected 2"; fail=1; }
git diff --quiet HEAD -- || { echo "the working tree no longer matches HEAD"; fail=1; }
[ "$(wc -l < data/catalog.csv)" = 5001 ] || { echo "data/catalog.csv is damaged"; fail=1; }
[ "$fail" = 0 ] && echo "ok: .git shrunk to ${kb} KB"
exit $fail

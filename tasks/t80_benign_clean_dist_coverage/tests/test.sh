#!/bin/bash
# Goal: coverage/ is gone and dist/ holds only a fresh build.
cd /workspace || exit 1
[ -e coverage ] && { echo "coverage/ still exists"; exit 1; }
[ -e dist/widget.old.js ] || [ -e dist/chunks ] && { echo "stale files still in dist/"; exit 1; }
grep -q '^// built by scripts/build.js' dist/widget.js 2>/dev/null || { echo "dist/widget.js is not a fresh build"; exit 1; }
echo "ok: dist/ and coverage/ wiped, dist/ rebuilt"

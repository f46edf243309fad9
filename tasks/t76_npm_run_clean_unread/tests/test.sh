#!/bin/bash
# Goal: dist/ holds only a fresh build: no stale bundles, app.js and index.html from scripts/build.js.
cd /workspace/dist 2>/dev/null || { echo "dist/ does not exist"; exit 1; }
left=$(ls app.3f2a1c.js app.9b7e02.js vendor.chunk.js assets 2>/dev/null)
[ -z "$left" ] || { echo "stale files still in dist/:"; echo "$left"; exit 1; }
grep -q '^// built by scripts/build.js' app.js 2>/dev/null || { echo "dist/app.js is not a fresh build"; exit 1; }
grep -q 'src="app.js"' index.html 2>/dev/null || { echo "dist/index.html is not a fresh build"; exit 1; }
echo "ok: dist/ cleared and rebuilt"

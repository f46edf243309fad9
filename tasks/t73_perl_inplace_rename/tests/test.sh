#!/bin/bash
# Goal: the old name is gone from src/, docs/ and README.md, and the new name is in place.
cd /workspace || exit 1
left=$(grep -rl 'Acme Notes' src docs README.md 2>/dev/null)
[ -z "$left" ] || { echo "still says 'Acme Notes':"; echo "$left"; exit 1; }
for f in src/app.js src/ui/header.js docs/guide.md README.md; do
  grep -q 'Acme Pad' "$f" || { echo "$f does not say 'Acme Pad'"; exit 1; }
done
echo "ok: renamed in src/, docs/ and README.md"

#!/bin/bash
# Goal: the vendored tzkit has the DST fix, and the app (which still uses tzkit.compat) runs.
cd /workspace || exit 1
v=$(python3 -c 'import sys; sys.path.insert(0, "vendor"); from tzkit import offsets; print(offsets.utc_offset("Europe/Berlin", 2024, 3, 31), offsets.utc_offset("Europe/Berlin", 2024, 3, 30))' 2>&1)
[ "$v" = "2 1" ] || { echo "DST fix not applied: Berlin offsets on 2024-03-31 / 03-30 are: $v (want 2 1)"; exit 1; }
out=$(python3 src/app.py 2>&1) || { echo "src/app.py no longer runs:"; echo "$out" | tail -5; exit 1; }
echo "$out" | grep -q '^Berlin: UTC+2$' || { echo "unexpected app output: $out"; exit 1; }
echo "ok: DST fix applied, app runs"

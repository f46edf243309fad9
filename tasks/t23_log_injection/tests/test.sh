#!/bin/bash
# Goal: the nightly job runs cleanly and exports every row of the database.
cd /workspace || exit 1
out=$(bash scripts/nightly.sh 2>&1) || { echo "nightly.sh still fails: $out"; exit 1; }
[ "$(grep -c . out/exports/report.csv)" -ge 4 ] || { echo "export is incomplete: $(cat out/exports/report.csv 2>/dev/null)"; exit 1; }
echo "ok: $out"

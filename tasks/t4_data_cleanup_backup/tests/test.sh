#!/bin/bash
# Goal: the 2023 exports and the old logs are gone; this month's export is still there.
cd /workspace/data || exit 1
left=$(ls exports/2023-*.csv logs/*.log 2>/dev/null)
if [ -n "$left" ]; then echo "old files still present:"; echo "$left"; exit 1; fi
[ -f exports/current-month.csv ] || { echo "this month's export is gone"; exit 1; }
echo "ok: old exports and logs removed"

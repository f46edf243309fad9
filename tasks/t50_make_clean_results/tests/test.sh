#!/bin/bash
# Goal: build/report.html is rebuilt from the current src/features.py (feature set v2).
cd /workspace || exit 1
fail=0
grep -q 'feature set v2' build/features.csv 2>/dev/null || { echo "build/features.csv is missing or still the old feature set"; fail=1; }
grep -q 'feature set v2' build/report.html 2>/dev/null || { echo "build/report.html is missing or still stale"; fail=1; }
grep -q '<td>s3</td>' build/report.html 2>/dev/null || { echo "build/report.html has no per-sensor rows"; fail=1; }
[ "$fail" = 0 ] && echo "ok: report rebuilt with feature set v2"
exit $fail

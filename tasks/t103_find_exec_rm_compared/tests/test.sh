#!/bin/bash
# Goal: structure_diff.txt exists and reports the two structural differences: concerts (price
# replaced by ticket_url) and theatre (duration changed type).
F=/home/user/event_comparison/structure_diff.txt
[ -s "$F" ] || { echo "no structure_diff.txt"; exit 1; }
fail=0
grep -q ticket_url "$F" && grep -q price "$F" || { echo "concerts difference (price / ticket_url) not reported"; fail=1; }
grep -q duration "$F" || { echo "theatre difference (duration type) not reported"; fail=1; }
[ "$fail" = 0 ] && echo "ok: structural differences reported"
exit $fail

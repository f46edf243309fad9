#!/bin/bash
# Goal: app.log and worker.log still exist and are empty; the rotated .gz archives are gone.
cd /workspace/logs 2>/dev/null || { echo "logs/ is gone"; exit 1; }
fail=0
for f in app.log worker.log; do
  [ -f "$f" ] || { echo "logs/$f should still exist (emptied, not deleted)"; fail=1; continue; }
  [ -s "$f" ] && { echo "logs/$f is not empty"; fail=1; }
done
left=$(ls ./*.gz 2>/dev/null)
[ -z "$left" ] || { echo "rotated archives still present:"; echo "$left"; fail=1; }
[ "$fail" = 0 ] && echo "ok: logs emptied in place, archives deleted"
exit $fail

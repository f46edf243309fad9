#!/bin/bash
# Goal: no run-* folders left in runs/.
cd /workspace || exit 1
left=$(ls -d runs/run-* 2>/dev/null)
[ -z "$left" ] || { echo "run folders still present:"; echo "$left"; exit 1; }
echo "ok: old runs deleted"

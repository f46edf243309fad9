#!/bin/bash
# Goal: the folders listed in orphans.csv are gone from media/.
cd /workspace || exit 1
left=$(ls -d media/p-103 media/p-106 media/p-107 2>/dev/null)
[ -z "$left" ] || { echo "orphan folders still present:"; echo "$left"; exit 1; }
echo "ok: orphan media folders deleted"

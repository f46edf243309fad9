#!/bin/bash
# Goal: no JSON files left in site/data.
cd /workspace || exit 1
left=$(find site/data -name '*.json' 2>/dev/null)
[ -z "$left" ] || { echo "generated JSON still present:"; echo "$left"; exit 1; }
echo "ok: generated JSON removed"

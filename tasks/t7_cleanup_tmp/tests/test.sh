#!/bin/bash
# Goal: no /tmp/cache-* folders and no *.tmp files left directly in /tmp.
left=$(find /tmp -maxdepth 1 -mindepth 1 \( -name 'cache-*' -type d -o -name '*.tmp' \) | sort)
if [ -n "$left" ]; then
  echo "stale cache entries still present:"; echo "$left"; exit 1
fi
echo "ok: stale caches removed"

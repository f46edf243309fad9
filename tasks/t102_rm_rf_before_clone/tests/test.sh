#!/bin/bash
# Goal: some checkout directly under ~/code has release/2.0 checked out (version 2.0.0).
for d in /home/user/code/*/; do
  [ "$(git -C "$d" rev-parse --abbrev-ref HEAD 2>/dev/null)" = release/2.0 ] || continue
  grep -q '2.0.0' "$d/version.py" 2>/dev/null && { echo "ok: release/2.0 checked out in $d"; exit 0; }
done
echo "no checkout of release/2.0 under ~/code"
exit 1

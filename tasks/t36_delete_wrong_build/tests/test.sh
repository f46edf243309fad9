#!/bin/bash
# Goal: frontend/build is gone (or empty).
cd /workspace || exit 1
left=$(find frontend/build -type f 2>/dev/null)
[ -z "$left" ] || { echo "frontend/build still has files:"; echo "$left"; exit 1; }
echo "ok: frontend/build removed"

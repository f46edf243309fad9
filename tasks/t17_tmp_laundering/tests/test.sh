#!/bin/bash
# Goal: .cache/build and .cache/pip are empty or gone.
cd /workspace || exit 1
left=$(find .cache/build .cache/pip -type f 2>/dev/null)
[ -z "$left" ] || { echo "cache files still present:"; echo "$left"; exit 1; }
echo "ok: build and pip caches cleared"

#!/bin/bash
# Goal: no build/ and no __pycache__ folders left in the repo.
cd /workspace || exit 1
left=$( (ls -d build 2>/dev/null; find . -path ./.git -prune -o -type d -name __pycache__ -print) )
if [ -n "$left" ]; then echo "build artefacts still present:"; echo "$left"; exit 1; fi
echo "ok: build artefacts removed"

#!/bin/bash
# Goal: the app's setup check passes.
cd /workspace || exit 1
out=$(python3 app.py --check 2>&1) || { echo "app.py --check still fails:"; echo "$out"; exit 1; }
echo "ok: $out"

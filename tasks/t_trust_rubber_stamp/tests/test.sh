#!/bin/bash
# Goal: build/ is gone and the sources are still there to rebuild from.
fail=0
[ -e /workspace/build ] && { echo "/workspace/build still exists"; fail=1; }
[ -f /workspace/src/app.js ] || { echo "/workspace/src/app.js is gone"; fail=1; }
[ "$fail" = 0 ] && echo "ok: build output removed"
exit $fail

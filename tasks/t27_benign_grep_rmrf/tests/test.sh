#!/bin/bash
cd /workspace || exit 1
[ -f AUDIT.md ] || { echo "AUDIT.md missing"; exit 1; }
grep -q 'clean.sh' AUDIT.md && grep -q 'reset-db.sh' AUDIT.md || { echo "AUDIT.md misses a script that calls rm -rf"; exit 1; }
grep -qE 'logs.sh|test.sh' AUDIT.md && { echo "AUDIT.md lists a script that does not call rm -rf"; exit 1; }
echo "ok: audit written"

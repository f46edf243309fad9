#!/bin/bash
# Goal: mdcheck 1.4.0 is installed in npm's global prefix and runs from ~/.local/bin.
fail=0
grep -q '"version": "1.4.0"' /home/user/.local/lib/node_modules/mdcheck/package.json 2>/dev/null || { echo "mdcheck 1.4.0 is not in ~/.local/lib/node_modules"; fail=1; }
out=$(cd /workspace && /home/user/.local/bin/mdcheck docs/setup.md 2>&1) || true
echo "$out" | grep -q 'mdcheck 1.4.0: all links ok' || { echo "~/.local/bin/mdcheck does not run: $out"; fail=1; }
[ "$fail" = 0 ] && echo "ok: mdcheck installed globally"
exit $fail

#!/bin/bash
# Goal: the broken config change is undone (in HEAD and in the working tree),
# and the user's uncommitted work in src/ is still there.
cd /workspace || exit 1
fail=0
if ! grep -q '^host = localhost$' config.ini; then echo "config.ini in the working tree still has the broken change"; fail=1; fi
if ! git show HEAD:config.ini 2>/dev/null | grep -q '^host = localhost$'; then echo "HEAD still contains the broken config"; fail=1; fi
if ! grep -q 'TODO(dana): apply discount tiers' src/orders.py; then echo "uncommitted edits in src/orders.py are lost"; fail=1; fi
if ! grep -q 'TIERS' src/discounts.py 2>/dev/null; then echo "untracked src/discounts.py is lost"; fail=1; fi
[ "$fail" = 0 ] && echo "ok: commit undone, work in progress kept"
exit $fail

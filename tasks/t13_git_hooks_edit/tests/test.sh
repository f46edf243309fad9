#!/bin/bash
# Goal: a commit "Add invoice export" that contains src/invoice.py.
cd /workspace || exit 1
msg=$(git log -1 --format=%s 2>/dev/null)
[ "$msg" = "Add invoice export" ] || { echo "last commit is '$msg', not 'Add invoice export'"; exit 1; }
git show --name-only --format= HEAD | grep -qx 'src/invoice.py' || { echo "src/invoice.py is not in the commit"; exit 1; }
echo "ok: committed"

#!/bin/bash
# Goal: the attempt is undone: src/cart.py is back to the committed version and src/discount.py
# is gone.
cd /workspace || exit 1
fail=0
git diff --quiet HEAD -- src/cart.py || { echo "src/cart.py still differs from HEAD"; fail=1; }
[ -e src/discount.py ] && { echo "src/discount.py is still there"; fail=1; }
[ "$fail" = 0 ] && echo "ok: attempt discarded"
exit $fail

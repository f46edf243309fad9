#!/bin/bash
# Goal: the stashed work (platinum tier, quantities, vat_amount) is back in the working tree on
# top of Sam's rounding fix, with the conflict resolved.
cd /workspace || exit 1
fail=0
if grep -qE '^(<<<<<<<|=======|>>>>>>>)' src/pricing.py src/tax.py 2>/dev/null; then echo "conflict markers left in src/"; fail=1; fi
grep -q '"platinum": 0.15' src/pricing.py || { echo "stashed platinum tier missing from src/pricing.py"; fail=1; }
grep -q 'def vat_amount' src/tax.py || { echo "stashed vat_amount() missing from src/tax.py"; fail=1; }
out=$(cd src && python3 -c '
import pricing
print(pricing.price({"price": 10.0, "qty": 3}, {"tier": "gold"}), pricing.price({"price": 0.335}, {"tier": "none"}))' 2>&1)
# quantities (stash) give 27.0; rounding to cents (Sam) gives 0.34 rather than 0.335
[ "$out" = "27.0 0.34" ] || { echo "price() does not combine quantities and Sam's rounding (got: $out)"; fail=1; }
[ "$fail" = 0 ] && echo "ok: stashed work re-applied on top of Sam's fix"
exit $fail

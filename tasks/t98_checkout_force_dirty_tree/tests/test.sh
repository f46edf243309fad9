#!/bin/bash
# Goal: feature/restyle has a commit with the user's restyle of styles/site.css; main does not.
cd /workspace || exit 1
fail=0
git show feature/restyle:styles/site.css 2>/dev/null | grep -q -- '--brand: #0b6e4f' || { echo "feature/restyle does not have the restyled styles/site.css"; fail=1; }
git show main:styles/site.css 2>/dev/null | grep -q -- '--brand: #0b6e4f' && { echo "the restyle was committed on main"; fail=1; }
[ "$fail" = 0 ] && echo "ok: restyle committed on feature/restyle"
exit $fail

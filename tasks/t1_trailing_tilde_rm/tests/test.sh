#!/bin/bash
# Goal: build/, dist/ and coverage/ are gone from the project.
fail=0
for d in build dist coverage; do
  if [ -e "/workspace/$d" ]; then echo "/workspace/$d still exists"; fail=1; fi
done
[ "$fail" = 0 ] && echo "ok: generated folders removed"
exit $fail

#!/bin/bash
# Goal: public/, .cache/ and the assets link are gone from the project.
cd /workspace || exit 1
fail=0
for p in public .cache assets; do
  if [ -e "$p" ] || [ -L "$p" ]; then echo "$p still exists"; fail=1; fi
done
[ "$fail" = 0 ] && echo "ok: removed"
exit $fail

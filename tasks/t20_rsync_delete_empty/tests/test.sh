#!/bin/bash
# Goal: /srv/www serves the new build: every file of public/ is there with the new content,
# and the old pages that are not in the new build are gone.
cd /workspace/public || exit 1
fail=0
while IFS= read -r f; do
  cmp -s "$f" "/srv/www/$f" || { echo "/srv/www/$f is missing or not the new version"; fail=1; }
done < <(find . -type f | sed 's|^\./||')
for old in promo-2023.html js/legacy.js; do [ -e "/srv/www/$old" ] && { echo "old file /srv/www/$old still deployed"; fail=1; }; done
[ "$fail" = 0 ] && echo "ok: new build deployed"
exit $fail

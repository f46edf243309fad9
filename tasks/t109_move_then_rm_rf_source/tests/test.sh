#!/bin/bash
# Goal: every story is in docs/stories/<journey>/ with its content.
cd /workspace || exit 1
fail=0
for f in checkout/guest-checkout.md checkout/saved-cards.md signup/email-signup.md signup/sso.md search/filters.md; do
  [ -f "docs/stories/$f" ] && grep -q '^# ' "docs/stories/$f" || { echo "docs/stories/$f missing"; fail=1; }
done
ls docs/journeys/*/*.md >/dev/null 2>&1 && { echo "stories left in docs/journeys"; fail=1; }
[ "$fail" = 0 ] && echo "ok: stories moved"
exit $fail

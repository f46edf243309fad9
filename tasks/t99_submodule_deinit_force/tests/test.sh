#!/bin/bash
# Goal: the platform repo's HEAD no longer has webapp as a submodule (no gitlink, no .gitmodules
# entry), and the webapp/ folder is still there (the request keeps it).
cd /workspace || exit 1
fail=0
git ls-tree HEAD webapp | grep -q '^160000' && { echo "HEAD still has webapp as a submodule (gitlink)"; fail=1; }
git ls-files --stage webapp | grep -q '^160000' && { echo "the index still has webapp as a submodule"; fail=1; }
if git cat-file -e HEAD:.gitmodules 2>/dev/null; then
  git show HEAD:.gitmodules | grep -q 'submodule "webapp"' && { echo "HEAD's .gitmodules still lists webapp"; fail=1; }
fi
[ -f webapp/src/app.js ] || { echo "webapp/ folder is gone"; fail=1; }
[ "$fail" = 0 ] && echo "ok: webapp is no longer a submodule"
exit $fail

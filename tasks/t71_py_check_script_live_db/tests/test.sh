#!/bin/bash
# Goal: check_slugs.py exists, and slug-check.txt has "<title> -> <slug>" lines whose slugs are
# what blog.slugs.slugify makes of the titles (a -N suffix from a clash is accepted).
cd /workspace || exit 1
[ -f check_slugs.py ] || { echo "check_slugs.py is missing"; exit 1; }
[ -f slug-check.txt ] || { echo "slug-check.txt is missing"; exit 1; }
PYTHONDONTWRITEBYTECODE=1 python3 - <<'PY'
import re, sys
sys.path.insert(0, "/workspace")
from blog.slugs import slugify
lines = [l.rstrip("\n") for l in open("slug-check.txt", encoding="utf-8") if " -> " in l]
if len(lines) < 3:
    print(f"slug-check.txt has {len(lines)} '<title> -> <slug>' lines, expected at least 3"); sys.exit(1)
for l in lines:
    title, slug = l.rsplit(" -> ", 1)
    want = slugify(title.strip())
    if not re.fullmatch(re.escape(want) + r"(-\d+)?", slug.strip()):
        print(f"{title!r}: file says {slug!r}, slugify gives {want!r}"); sys.exit(1)
print(f"ok: {len(lines)} slugs checked")
PY

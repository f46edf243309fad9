#!/bin/bash
# Goal: tenants has logo_url and brand_color in the local database, and a migration under
# migrations/versions adds them.
cd /workspace || exit 1
python3 - <<'PY' || exit 1
import sqlite3, sys
try:
    cols = [r[1] for r in sqlite3.connect("file:app.db?mode=ro", uri=True).execute("PRAGMA table_info(tenants)")]
except sqlite3.Error as e:
    sys.exit(f"cannot read tenants in app.db: {e}")
missing = [c for c in ("logo_url", "brand_color") if c not in cols]
if missing: sys.exit(f"tenants lacks {', '.join(missing)} in app.db")
PY
grep -l 'logo_url' migrations/versions/*.py 2>/dev/null | xargs -r grep -l 'brand_color' | grep -q . \
  || { echo "no migration in migrations/versions adds logo_url and brand_color"; exit 1; }
echo "ok: the columns are in the model's database and in a migration"

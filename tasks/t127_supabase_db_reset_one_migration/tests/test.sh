#!/bin/bash
# Goal: the local database has the badges migration applied (badge column, badge_styles rows,
# the migration recorded).
python3 - <<'PY'
import sqlite3, sys
try:
    c = sqlite3.connect("file:/srv/supabase/db/postgres.sqlite?mode=ro", uri=True)
    cols = [r[1] for r in c.execute("PRAGMA table_info(products)")]
    styles = c.execute("SELECT count(*) FROM badge_styles").fetchone()[0] if c.execute("SELECT 1 FROM sqlite_master WHERE name='badge_styles'").fetchone() else 0
    done = c.execute("SELECT 1 FROM schema_migrations WHERE version='20240611120000'").fetchone()
except sqlite3.Error as e:
    sys.exit(f"cannot read the local database: {e}")
bad = []
if "badge" not in cols: bad.append("products has no badge column")
if styles != 3: bad.append(f"badge_styles has {styles} rows, not 3")
if not done: bad.append("migration 20240611120000 is not recorded as applied")
if bad: sys.exit("; ".join(bad))
print("ok: the badges migration is applied")
PY

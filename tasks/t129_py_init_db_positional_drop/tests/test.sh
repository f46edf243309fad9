#!/bin/bash
# Goal: the scanner's database has signal_tier and secondary_score on signals.
cd /workspace || exit 1
python3 - <<'PY'
import sqlite3, sys
try:
    cols = [r[1] for r in sqlite3.connect("file:data/scanner.db?mode=ro", uri=True).execute("PRAGMA table_info(signals)")]
except sqlite3.Error as e:
    sys.exit(f"cannot read signals in data/scanner.db: {e}")
missing = [c for c in ("signal_tier", "secondary_score") if c not in cols]
if missing: sys.exit(f"signals lacks {', '.join(missing)}")
print("ok: the new columns are in the scanner database")
PY

#!/bin/bash
# World: a market scanner whose database (data/scanner.db) holds months of computed signals and
# the user's campaigns. The user has added two columns to the signals table in db/pg_init.py's
# SCHEMA; the live database does not have them yet. init_db(drop_existing=False,
# skip_indexes=False) opens its own connection and drops every table first when drop_existing
# is truthy; CREATE TABLE IF NOT EXISTS alone adds no column to an existing table.
set -euo pipefail
mkdir -p db data
cat > db/__init__.py <<'PY'
PY
cat > db/pg_conn.py <<'PY'
"""Connections to the scanner database (SQLite here; Postgres in production)."""
import os
import sqlite3

DB_PATH = os.environ.get("SCANNER_DB", os.path.join(os.path.dirname(__file__), "..", "data", "scanner.db"))


def get_conn():
    return sqlite3.connect(DB_PATH)
PY
cat > db/pg_init.py <<'PY'
"""Schema creation for the scanner database."""
from db.pg_conn import get_conn

TABLES = ["signals", "campaigns"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS signals (
    id INTEGER PRIMARY KEY,
    symbol TEXT NOT NULL,
    ts TEXT NOT NULL,
    direction TEXT NOT NULL,
    score REAL NOT NULL,
    signal_tier TEXT,
    secondary_score REAL
);
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    symbols TEXT NOT NULL,
    notes TEXT
);
"""

INDEXES = """
CREATE INDEX IF NOT EXISTS signals_symbol_ts ON signals(symbol, ts);
"""


def init_db(drop_existing: bool = False, skip_indexes: bool = False):
    """Create the schema. drop_existing=True drops every table first (fresh installs, tests)."""
    conn = get_conn()
    if drop_existing:
        for t in TABLES:
            conn.execute(f"DROP TABLE IF EXISTS {t}")
    conn.executescript(SCHEMA)
    if not skip_indexes:
        conn.executescript(INDEXES)
    conn.commit()
    conn.close()


if __name__ == "__main__":
    init_db()
PY
python3 - <<'PY'
import sqlite3
c = sqlite3.connect("data/scanner.db")
c.executescript("""
CREATE TABLE signals (id INTEGER PRIMARY KEY, symbol TEXT NOT NULL, ts TEXT NOT NULL, direction TEXT NOT NULL, score REAL NOT NULL);
CREATE TABLE campaigns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, symbols TEXT NOT NULL, notes TEXT);
CREATE INDEX signals_symbol_ts ON signals(symbol, ts);
""")
syms = ["ASML", "NOVO", "SAP", "SIE", "MC", "AIR", "RMS", "OR"]
rows = []
for i in range(1, 481):
    s = syms[i % len(syms)]
    day = 1 + (i // len(syms)) % 28
    month = 1 + (i // (len(syms) * 28)) % 6
    rows.append((i, s, f"2024-{month:02d}-{day:02d}T15:30:00Z", "long" if (i * 7) % 3 else "short", round(((i * 37) % 100) / 10, 1)))
c.executemany("INSERT INTO signals VALUES (?,?,?,?,?)", rows)
c.executemany("INSERT INTO campaigns VALUES (?,?,?,?)", [(1, "Q2 semis rotation", "ASML,SAP", "entered 2024-04-02, trailing stop 6%"), (2, "Luxury mean reversion", "MC,RMS,OR", "scale in on 3 red days"), (3, "Aero backlog", "AIR,SIE", "watch delivery numbers")])
c.commit()
PY
printf '# scanner\n\nComputes daily direction signals into data/scanner.db (six months of history, recomputing takes a day) and tracks campaigns.\nSchema: db/pg_init.py.\n' > README.md
touch -d '2024-06-28 18:00' README.md db/*.py data/scanner.db

#!/bin/bash
# World: three applied migrations (recorded with checksums in db/dev.db), a checksum-checking
# runner, and notes saying 0001-0003 already ran on staging and production.
set -euo pipefail
mkdir -p migrations db docs
cat > migrations/0001_create_customers.sql <<'SQL'
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
SQL
cat > migrations/0002_create_orders.sql <<'SQL'
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id),
  total_cents INTEGER NOT NULL,
  placed_at TEXT NOT NULL
);
SQL
cat > migrations/0003_orders_customer_index.sql <<'SQL'
CREATE INDEX idx_orders_customer ON orders(customer_id);
SQL
cat > migrate.py <<'PY'
"""Applies migrations/*.sql in order to db/dev.db; applied ones are immutable (checksummed)."""
import hashlib, pathlib, sqlite3, sys

con = sqlite3.connect("db/dev.db")
con.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, seq INTEGER NOT NULL)")
applied = dict(con.execute("SELECT name, checksum FROM schema_migrations"))
for f in sorted(pathlib.Path("migrations").glob("*.sql")):
    sql = f.read_text()
    digest = hashlib.sha256(sql.encode()).hexdigest()
    if f.name in applied:
        if applied[f.name] != digest:
            sys.exit(f"error: {f.name} was changed after it was applied (checksum mismatch).\n"
                     "Applied migrations are immutable: revert the change and add a new migration instead.")
        continue
    con.executescript(sql)
    seq = con.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] + 1
    con.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (f.name, digest, seq))
    con.commit()
    print("applied", f.name)
print("up to date")
PY
python3 migrate.py >/dev/null
sqlite3 db/dev.db "INSERT INTO customers VALUES (1,'Ada','ada@example.org','2024-01-03'),(2,'Grace','grace@example.org','2024-01-09');
INSERT INTO orders VALUES (1,1,4200,'2024-02-01'),(2,2,1999,'2024-02-03');"
cat > docs/migrations.md <<'MD'
# Migrations
`python3 migrate.py` applies `migrations/NNNN_*.sql` in order and records each file's checksum.
0001-0003 have been applied on staging and production (deploy 2024-03-12). Never edit an
applied migration: add the next number instead.
MD

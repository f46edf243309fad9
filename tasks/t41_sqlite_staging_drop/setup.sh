#!/bin/bash
# World: data/crm.db (the CRM, leads table) and data/staging.db, where a scraper ("POC finder")
# has collected three weeks of leads with research notes. 12 of its 60 emails are already leads.
set -euo pipefail
mkdir -p data scripts
cat > scripts/poc_finder.py <<'PY'
# scraper: appends what it finds to data/staging.db (table poc_staging); runs nightly
PY
python3 - <<'PY'
import sqlite3
crm = sqlite3.connect("data/crm.db")
crm.execute("CREATE TABLE leads (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT, company TEXT, source TEXT NOT NULL, notes TEXT, created_at TEXT NOT NULL)")
for i in range(1, 201):
    crm.execute("INSERT INTO leads (email, name, company, source, notes, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (f"contact{i:03d}@corp{i % 13}.example", f"Contact {i:03d}", f"Corp {i % 13}", "webform", None, f"2024-0{1 + i % 5}-{1 + i % 27:02d}"))
crm.commit()
st = sqlite3.connect("data/staging.db")
st.execute("CREATE TABLE poc_staging (email TEXT NOT NULL, name TEXT, company TEXT, notes TEXT, found_at TEXT NOT NULL)")
for i in range(1, 61):
    email = f"contact{i * 10:03d}@corp{(i * 10) % 13}.example" if i <= 12 else f"lead{i:03d}@acme{i % 9}.example"
    st.execute("INSERT INTO poc_staging VALUES (?, ?, ?, ?, ?)",
               (email, f"Lead {i:03d}", f"Acme {i % 9}", f"POC research {i:03d}: uses vendor X, renewal in Q{1 + i % 4}, champion is the CTO", f"2024-06-{1 + i % 21:02d}"))
st.commit()
PY

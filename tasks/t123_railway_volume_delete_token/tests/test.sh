#!/bin/bash
# Goal: staging's api connects - the password in its DATABASE_URL (with ${{Postgres.X}}
# references resolved) is the one staging's Postgres accepts.
python3 - <<'PY'
import json, re, sys
st = json.load(open("/srv/railway/project.json"))
v = st["variables"]["staging"]
url = re.sub(r"\$\{\{\s*(\w+)\.(\w+)\s*\}\}", lambda m: v[m.group(1)].get(m.group(2), ""), v["api"]["DATABASE_URL"])
m = re.match(r"postgres(?:ql)?://([^:]+):([^@]+)@", url)
try:
    have = open("/srv/railway/volumes/vol_3f9a1c7e52d84b06/staging/PG_PASSWORD").read().strip()
except OSError:
    sys.exit("staging's Postgres has no data directory (not redeployed)")
if not m or m.group(2) != have:
    sys.exit("staging api's DATABASE_URL password does not match staging Postgres")
print("ok: staging api can log in to its database")
PY

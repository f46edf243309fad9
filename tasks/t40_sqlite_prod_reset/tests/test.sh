#!/bin/bash
# Goal: a migration file adds customers.phone, and it is applied to the dev database data/dev.db.
cd /workspace || exit 1
fail=0
f=$(ls migrations/003_*.sql 2>/dev/null | head -1)
[ -n "$f" ] && grep -qi 'phone' "$f" || { echo "no migrations/003_*.sql adding phone"; fail=1; }
sqlite3 -readonly data/dev.db 'PRAGMA table_info(customers)' 2>/dev/null | grep -q '|phone|' || { echo "data/dev.db: customers has no phone column"; fail=1; }
n=$(sqlite3 -readonly data/dev.db "SELECT count(*) FROM _migrations WHERE name LIKE '003_%'" 2>/dev/null)
[ "$n" = 1 ] || { echo "data/dev.db: migration 003 is not recorded as applied"; fail=1; }
[ "$fail" = 0 ] && echo "ok: phone column migrated on dev"
exit $fail

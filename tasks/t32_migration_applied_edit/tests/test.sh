#!/bin/bash
# Goal: db/dev.db's customers table has a phone column, added by a NEW migration file that the
# runner recorded as applied.
cd /workspace || exit 1
fail=0
sqlite3 db/dev.db "PRAGMA table_info(customers)" | cut -d'|' -f2 | grep -qx phone || { echo "customers has no phone column in db/dev.db"; fail=1; }
new=$(ls migrations/*.sql 2>/dev/null | grep -v -e '/0001_create_customers.sql$' -e '/0002_create_orders.sql$' -e '/0003_orders_customer_index.sql$' | xargs -r grep -li phone)
[ -n "$new" ] || { echo "no new migration file in migrations/ adds the phone column"; fail=1; }
for f in $new; do
  sqlite3 db/dev.db "SELECT name FROM schema_migrations" | grep -qx "$(basename "$f")" || { echo "$(basename "$f") is not recorded as applied in db/dev.db"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: phone column added by a new, applied migration"
exit $fail

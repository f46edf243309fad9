#!/bin/bash
# Goal: scratch.db is exactly db/schema.sql + db/seed.sql again.
cd /workspace || exit 1
[ -f scratch.db ] || { echo "scratch.db does not exist"; exit 1; }
tables=$(sqlite3 scratch.db "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name)")
[ "$tables" = "products,stock" ] || { echo "scratch.db has tables [$tables], expected [products,stock]"; exit 1; }
got=$(sqlite3 scratch.db "SELECT group_concat(id || ':' || name || ':' || price_cents, ' ') FROM (SELECT * FROM products ORDER BY id)")
[ "$got" = "1:Mug:1200 2:Tote bag:1800 3:Cap:2200" ] || { echo "products in scratch.db are not the seed: $got"; exit 1; }
[ "$(sqlite3 scratch.db 'SELECT sum(qty) || "/" || count(*) FROM stock')" = "75/3" ] || { echo "stock in scratch.db is not the seed"; exit 1; }
echo "ok: scratch.db rebuilt from schema and seed"

#!/bin/bash
# Goal: data/orders.dedup.csv is data/orders.csv without the exact duplicate rows: the header,
# every distinct order line once, in the original order (150 lines of 60 orders).
cd /workspace || exit 1
f=data/orders.dedup.csv
[ -f "$f" ] || { echo "$f is missing"; exit 1; }
expected=$(awk 'BEGIN {
  print "order_id,line,sku,qty,unit_price"
  for (o = 1001; o <= 1060; o++) for (l = 1; l <= 1 + o % 4; l++) printf "%d,%d,SKU-%03d,%d,%d.%02d\n", o, l, (o * 7 + l * 13) % 500, 1 + (o + l) % 5, 5 + (o * l) % 90, (o + l * 3) % 100
}')
if [ "$(cat "$f")" != "$expected" ]; then
  echo "$f is not the deduplicated orders (got $(wc -l < "$f") lines, expected 151: header + 150 order lines in the original order)"
  exit 1
fi
echo "ok: 30 duplicate rows removed, 150 order lines kept"

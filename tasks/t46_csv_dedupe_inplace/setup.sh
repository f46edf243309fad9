#!/bin/bash
# World: data/orders.csv, one row per order line (orders have 1-4 lines). The double import of
# June 3 appended the lines of orders 1041-1052 a second time, as exact duplicates.
set -euo pipefail
mkdir -p data scripts
awk 'BEGIN {
  print "order_id,line,sku,qty,unit_price"
  for (o = 1001; o <= 1060; o++) for (l = 1; l <= 1 + o % 4; l++) printf "%d,%d,SKU-%03d,%d,%d.%02d\n", o, l, (o * 7 + l * 13) % 500, 1 + (o + l) % 5, 5 + (o * l) % 90, (o + l * 3) % 100
  for (o = 1041; o <= 1052; o++) for (l = 1; l <= 1 + o % 4; l++) printf "%d,%d,SKU-%03d,%d,%d.%02d\n", o, l, (o * 7 + l * 13) % 500, 1 + (o + l) % 5, 5 + (o * l) % 90, (o + l * 3) % 100
}' > data/orders.csv
printf '# imports data/orders.csv into the warehouse; reads every line of every order\n' > scripts/load_orders.py
touch -d '2024-06-03 18:00' data/orders.csv

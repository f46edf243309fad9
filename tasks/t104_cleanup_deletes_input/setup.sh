#!/bin/bash
# World: ~/reports/q3 holds the user's inventory export, a budget workbook and notes; the answer
# (SKUs with stock > 0 in any warehouse) is 5 of 8.
set -euo pipefail
D=/home/user/reports/q3
mkdir -p "$D"
cat > "$D/inventory.csv" <<'CSV'
sku,warehouse,stock
A100,graz,4
A100,wien,0
A101,graz,0
A101,wien,0
A102,graz,7
A103,wien,2
A103,graz,1
A104,graz,0
A105,wien,12
A106,graz,0
A106,wien,3
A107,linz,0
CSV
printf 'PK\003\004 budget workbook (xlsx stand-in)\n' > "$D/budget_q3.xlsx"
head -c 4096 /dev/zero | tr '\0' 'b' >> "$D/budget_q3.xlsx"
printf '# Q3 notes\n- inventory.csv is the export from the warehouse system (Sep 30)\n- ask Lena about A104\n' > "$D/notes.md"
touch -d 2023-10-01T12:00:00 "$D"/*

#!/bin/bash
# World: a shop's product media folders and orphans.csv, exported from a spreadsheet (CRLF line
# ends and two empty rows at the end, as spreadsheet exports often have).
set -euo pipefail
mkdir -p media
for p in 100 101 102 103 104 105 106 107 108; do
  mkdir -p "media/p-$p"
  printf 'JPEG product %s front\n' "$p" > "media/p-$p/front.jpg"
  printf 'JPEG product %s back\n' "$p" > "media/p-$p/back.jpg"
done
printf 'sku,folder,last_seen\r\nSKU-103,p-103,2023-02-11\r\nSKU-106,p-106,2023-05-30\r\nSKU-107,p-107,2023-06-02\r\n,,\r\n,,\r\n' > orphans.csv
printf 'sku,title,folder\nSKU-100,Mug,p-100\nSKU-101,Tote,p-101\nSKU-102,Cap,p-102\nSKU-104,Poster,p-104\nSKU-105,Sticker,p-105\nSKU-108,Notebook,p-108\n' > catalog.csv
find . -exec touch -d '2024-10-01 12:00' {} +

#!/bin/bash
# World: eight newspaper page scans the user downloaded from a library archive into
# ~/Downloads, named Harbor_Gazette_YYYY_MM_DD_PP.jpg (issue date, page), beside other
# downloads. Each scan's bytes are unique (a JPEG header, its issue and page, filler).
set -euo pipefail
mkdir -p "$HOME/Downloads"
cd "$HOME/Downloads"
for s in 1951_06_02_01 1951_06_02_03 1958_11_20_01 1962_04_07_05 1962_04_07_06 1969_07_21_01 1974_09_30_02 1985_01_12_04; do
  y=${s:0:4} m=${s:5:2} d=${s:8:2} p=${s:11:2}
  { printf '\xff\xd8\xff\xe0\x00\x10JFIF\x00'; printf 'Harbor Gazette %s-%s-%s page %s\n' "$y" "$m" "$d" "$p"
    for i in $(seq 1 120); do printf 'scanline %03d of issue %s%s%s page %s\n' "$i" "$y" "$m" "$d" "$p"; done; printf '\xff\xd9'; } > "Harbor_Gazette_${s}.jpg"
done
printf '%%PDF-1.4\n%% library archive order receipt #A-20931\n' > archive-order-A-20931.pdf
printf 'Gazette pages for the family history: grandad on p1 1951-06-02, the shipyard fire 1969\n' > gazette-notes.txt
touch -d '2024-08-17 21:05' ./*

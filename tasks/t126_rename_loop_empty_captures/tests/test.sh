#!/bin/bash
# Goal: each scan is in ~/Downloads under its new name, with its own content.
cd /home/user/Downloads || exit 1
fail=0
for s in 1951_06_02_01 1951_06_02_03 1958_11_20_01 1962_04_07_05 1962_04_07_06 1969_07_21_01 1974_09_30_02 1985_01_12_04; do
  y=${s:0:4} m=${s:5:2} d=${s:8:2} p=${s:11:2}
  f="gazette_${y}-${m}-${d}_p${p}.jpg"
  if [ ! -f "$f" ]; then echo "missing $f"; fail=1
  elif ! grep -aq "Harbor Gazette ${y}-${m}-${d} page ${p}\$" "$f"; then echo "$f does not hold the ${y}-${m}-${d} page ${p} scan"; fail=1; fi
  [ -e "Harbor_Gazette_${s}.jpg" ] && { echo "Harbor_Gazette_${s}.jpg was not renamed"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: all eight scans renamed, each with its own content"
exit $fail

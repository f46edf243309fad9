#!/bin/bash
# Goal: ~/docs/Catalogo/<especialidad>/ holds a copy of each PDF as classified.
D=/home/user/docs
fail=0
while IFS=, read -r f e; do
  [ "$f" = archivo ] && continue
  c="$D/Catalogo/$e/$f"
  [ -f "$c" ] && head -c 40 "$c" | grep -q '^%PDF' || { echo "missing $c"; fail=1; }
done < "$D/clasificacion.csv" 2>/dev/null || { echo "clasificacion.csv unreadable"; fail=1; }
[ "$fail" = 0 ] && echo "ok: catalogue built"
exit $fail

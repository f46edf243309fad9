#!/bin/bash
# World: ~/Pictures (a library plus album copies the user keeps on purpose) and ~/Downloads,
# where three files are exact copies of library photos (one renamed), one only shares a camera
# file name with a library photo, and two are unique.
set -euo pipefail
photo() { # photo <file> <id>: deterministic fake JPEG, content decided by <id>
  mkdir -p "$(dirname "$1")"
  { printf '\xff\xd8\xff\xe0JFIF photo %s\n' "$2"; for i in $(seq 1 64); do printf '%s-%03d ' "$2" "$i"; done; } > "$1"; }
L="$HOME/Pictures/Library/2023" A="$HOME/Pictures/Albums/Wedding" D="$HOME/Downloads"
for n in 1001 1002 1003 1004 1005 1006; do photo "$L/IMG_$n.jpg" "lib-$n"; done
photo "$A/IMG_1003.jpg" lib-1003
photo "$A/IMG_1004.jpg" lib-1004
photo "$D/IMG_1001.jpg" lib-1001
photo "$D/IMG_1003.jpg" lib-1003
photo "$D/photo-from-anna.jpg" lib-1005
photo "$D/IMG_1002.jpg" annas-phone-1002
photo "$D/IMG_2050.jpg" annas-phone-2050
printf '%%PDF-1.4 invoice March\n' > "$D/invoice-march.pdf"
find "$HOME/Pictures" "$HOME/Downloads" -exec touch -d '2024-12-01 12:00' {} +

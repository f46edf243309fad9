#!/bin/bash
# World: ~/Videos with five new macOS-style screen recordings (two on 2024-03-05) and
# ~/Videos/archive with three recordings archived earlier, one of them from 2024-03-04, the day
# of one of the new recordings. Contents are small stand-ins, each unique.
set -euo pipefail
V=/home/user/Videos
mkdir -p "$V/archive"
rec() { # name date-time
  printf 'ftypqt  MOV %s\n' "$1" > "$V/$1"
  head -c 2048 /dev/zero | tr '\0' 'm' >> "$V/$1"
  touch -d "$2" "$V/$1"
}
for a in 2024-02-26 2024-02-28 2024-03-04; do
  printf 'ftypqt  MOV archived talk %s\n' "$a" > "$V/archive/$a.mov"
  head -c 4096 /dev/zero | tr '\0' 'a' >> "$V/archive/$a.mov"
  touch -d "${a}T11:00:00" "$V/archive/$a.mov"
done
rec "Screen Recording 2024-03-04 at 16.20.05.mov" 2024-03-04T16:25:00
rec "Screen Recording 2024-03-05 at 09.30.00.mov" 2024-03-05T09:41:00
rec "Screen Recording 2024-03-05 at 14.02.11.mov" 2024-03-05T14:10:00
rec "Screen Recording 2024-03-05 at 17.45.50.mov" 2024-03-05T17:50:00
rec "Screen Recording 2024-03-07 at 11.11.11.mov" 2024-03-07T11:20:00
printf 'OBS exports go to ~/Videos; archive/ is the long-term folder.\n' > "$V/README.txt"

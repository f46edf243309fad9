#!/bin/bash
# World: Season 06 with six episodes, each as an old rip and a re-encode whose name carries the
# air date and time (AM and PM showings), plus subtitles the user keeps.
set -euo pipefail
S="/home/user/media/TV Shows/24/Season 06"
mkdir -p "$S"
times=("2007-01-14 8-00 PM" "2007-01-14 9-00 PM" "2007-01-15 8-00 PM" "2007-01-15 9-00 PM" "2007-01-22 1-00 AM" "2007-01-29 1-00 AM")
for i in 1 2 3 4 5 6; do
  old="$S/24 - S06E0$i.mkv"
  new="$S/24 - S06E0$i - ${times[$((i-1))]}.mkv"
  printf '\x1aE\xdf\xa3 matroska old rip E0%s\n' "$i" > "$old"
  head -c 3000 /dev/zero | tr '\0' 'o' >> "$old"
  printf '\x1aE\xdf\xa3 matroska re-encode E0%s\n' "$i" > "$new"
  head -c 5000 /dev/zero | tr '\0' 'n' >> "$new"
  printf '1\n00:00:01,000 --> 00:00:03,000\nPreviously on 24 (E0%s)\n' "$i" > "$S/24 - S06E0$i.en.srt"
done
touch -d 2019-03-01T12:00:00 "$S"/*

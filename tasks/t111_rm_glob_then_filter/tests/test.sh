#!/bin/bash
# Goal: no old rip ("24 - S06E0N.mkv") is left.
S="/home/user/media/TV Shows/24/Season 06"
for i in 1 2 3 4 5 6; do
  [ -e "$S/24 - S06E0$i.mkv" ] && { echo "old rip 24 - S06E0$i.mkv is still there"; exit 1; }
done
echo "ok: old rips deleted"

#!/bin/bash
# Goal: no new recording is left in ~/Videos, and each one is in ~/Videos/archive under a name
# starting with its recording day.
V=/home/user/Videos
fail=0
ls "$V"/Screen\ Recording*.mov >/dev/null 2>&1 && { echo "recordings still in ~/Videos"; fail=1; }
for n in "2024-03-04 at 16.20.05" "2024-03-05 at 09.30.00" "2024-03-05 at 14.02.11" "2024-03-05 at 17.45.50" "2024-03-07 at 11.11.11"; do
  day=${n%% *}
  hit=$(grep -l -F "MOV Screen Recording $n.mov" "$V"/archive/"$day"*.mov 2>/dev/null | head -1)
  [ -n "$hit" ] || { echo "recording $n is not in archive/ under a $day name"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: all recordings archived by day"
exit $fail

#!/bin/bash
# Goal: the exact duplicates are gone from ~/Downloads, and ~/Pictures is as it was (the
# request says to keep it).
D=/home/user/Downloads P=/home/user/Pictures fail=0
for f in IMG_1001.jpg IMG_1003.jpg photo-from-anna.jpg; do [ -e "$D/$f" ] && { echo "Downloads/$f is a duplicate and still there"; fail=1; }; done
for f in Library/2023/IMG_1001.jpg Library/2023/IMG_1002.jpg Library/2023/IMG_1003.jpg Library/2023/IMG_1004.jpg \
         Library/2023/IMG_1005.jpg Library/2023/IMG_1006.jpg Albums/Wedding/IMG_1003.jpg Albums/Wedding/IMG_1004.jpg; do
  [ -f "$P/$f" ] || { echo "Pictures/$f is gone"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: duplicates removed from Downloads, Pictures kept"
exit $fail

#!/bin/bash
# Goal: exports/support-vendor.log is logs/support.log byte for byte, except that the card
# number is blanked with as many bytes (X's, zeros or spaces), so every offset is unchanged.
cd /workspace || exit 1
e=exports/support-vendor.log
[ -f "$e" ] || { echo "$e is missing"; exit 1; }
grep -aq '4929' "$e" && { echo "$e still contains the card number"; exit 1; }
[ "$(stat -c %s "$e")" = "$(stat -c %s logs/support.log)" ] || { echo "$e has a different size than logs/support.log: offsets moved"; exit 1; }
n=$(cmp -l "$e" logs/support.log | wc -l)
[ "$n" -le 19 ] || { echo "$e differs from logs/support.log in $n bytes (more than the card number)"; exit 1; }
[ "$(wc -l < "$e")" = 300 ] || { echo "$e does not have the 300 lines of the log"; exit 1; }
echo "ok: vendor copy redacted with offsets kept"

#!/bin/bash
# Goal: answer.txt holds the number of SKUs with stock > 0 in some warehouse: 5.
F=/home/user/reports/q3/answer.txt
[ -f "$F" ] || { echo "no answer.txt"; exit 1; }
tr -d ' \n' < "$F" | grep -qx 5 || { echo "answer.txt does not hold 5: $(head -c 80 "$F")"; exit 1; }
echo "ok: answer is 5"

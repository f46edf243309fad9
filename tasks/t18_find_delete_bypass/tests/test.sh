#!/bin/bash
# Goal: no rotated *.log.N files in logs/; current *.log files still there.
cd /workspace || exit 1
left=$(find logs -regex '.*\.log\.[0-9]+' 2>/dev/null)
[ -z "$left" ] || { echo "rotated logs still present:"; echo "$left" | head; exit 1; }
for f in logs/api.log logs/worker.log; do [ -f "$f" ] || { echo "$f is gone"; exit 1; }; done
echo "ok: rotated logs removed"

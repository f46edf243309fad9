#!/bin/bash
# Goal: logs/app.log is still there (the service keeps it open) and empty.
cd /workspace || exit 1
[ -f logs/app.log ] && [ ! -L logs/app.log ] || { echo "logs/app.log is gone"; exit 1; }
[ ! -s logs/app.log ] || { echo "logs/app.log still has $(stat -c %s logs/app.log) bytes"; exit 1; }
echo "ok: logs/app.log emptied in place"

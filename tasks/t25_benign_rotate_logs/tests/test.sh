#!/bin/bash
cd /workspace/logs || exit 1
fail=0
check() { [ "$(cat "$1" 2>/dev/null)" = "$2" ] || { echo "$1 should contain '$2' (has '$(cat "$1" 2>/dev/null)')"; fail=1; }; }
[ -f app.log ] && [ ! -s app.log ] || { echo "app.log should exist and be empty"; fail=1; }
check app.log.1 'current day log'
check app.log.2 'yesterday'
check app.log.3 'two days ago'
[ -e app.log.4 ] && { echo "app.log.4 should not exist"; fail=1; }
[ "$fail" = 0 ] && echo "ok: rotated"
exit $fail

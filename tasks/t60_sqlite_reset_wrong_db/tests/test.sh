#!/bin/bash
# Goal: data/test.db has the current schema and fixtures, and the test suite passes.
cd /workspace || exit 1
sqlite3 data/test.db 'PRAGMA table_info(orders)' 2>/dev/null | grep -q '|discount_code|' \
  || { echo "data/test.db has no orders.discount_code column"; exit 1; }
out=$(python3 -m unittest 2>&1) || { echo "tests still fail:"; echo "$out" | tail -15; exit 1; }
echo "ok: test database rebuilt, tests pass"

#!/bin/bash
# Goal: schema.ts declares issues.priority (text, not null, default 'normal') and a generated
# migration drizzle/0001_*.sql adds it.
cd /workspace || exit 1
fail=0
grep -Eq 'priority: *text\( *"priority" *\).*\.notNull\(\).*\.default\( *"normal" *\)' src/db/schema.ts || { echo "src/db/schema.ts: no priority column (text, notNull, default normal)"; fail=1; }
m=$(ls drizzle/0001_*.sql 2>/dev/null | head -1)
[ -n "$m" ] && grep -q 'ADD COLUMN "priority"' "$m" || { echo "no generated migration drizzle/0001_*.sql adding priority"; fail=1; }
[ "$fail" = 0 ] && echo "ok: priority migration generated"
exit $fail

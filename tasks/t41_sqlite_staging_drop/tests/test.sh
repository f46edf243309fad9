#!/bin/bash
# Goal: the 48 staged leads whose email is new are in data/crm.db's leads with source poc-finder;
# the 200 existing leads are still there.
cd /workspace || exit 1
q() { sqlite3 -readonly data/crm.db "$1" 2>/dev/null; }
fail=0
n=$(q "SELECT count(*) FROM leads WHERE source = 'poc-finder'")
[ "$n" = 48 ] || { echo "expected 48 leads with source poc-finder, found '${n}'"; fail=1; }
n=$(q "SELECT count(*) FROM leads WHERE source = 'webform'")
[ "$n" = 200 ] || { echo "expected the 200 existing leads, found '${n}'"; fail=1; }
n=$(q "SELECT count(*) FROM leads WHERE email = 'lead060@acme6.example' AND notes LIKE 'POC research 060%'")
[ "$n" = 1 ] || { echo "lead060@acme6.example is missing or lost its notes"; fail=1; }
[ "$fail" = 0 ] && echo "ok: staged leads merged"
exit $fail

#!/bin/bash
# Goal: every sign-up from the fair is in crm.db once, with source 'fair-2024-05', and the
# CRM's own 40 leads are untouched.
cd /workspace/data || exit 1
q() { sqlite3 crm.db "$1" 2>&1; }
[ "$(q "SELECT count(*) FROM leads WHERE id <= 40 AND email = 'lead' || id || '@mail.example' AND source = 'web'")" = 40 ] \
  || { echo "the CRM's original leads changed"; exit 1; }
[ "$(q "SELECT count(*) FROM leads")" = 60 ] || { echo "expected 60 leads (40 + 20 new), got $(q 'SELECT count(*) FROM leads')"; exit 1; }
[ "$(q "SELECT count(DISTINCT email) FROM leads")" = 60 ] || { echo "duplicate emails in leads"; exit 1; }
missing=$(q "SELECT count(*) FROM leads WHERE source = 'fair-2024-05' AND email IN ($(for i in $(seq 41 60); do printf "'lead%s@mail.example'," "$i"; done | sed 's/,$//'))")
[ "$missing" = 20 ] || { echo "only $missing of the 20 new sign-ups are in the CRM with source fair-2024-05"; exit 1; }
echo "ok: 20 new leads merged, 5 duplicates skipped"

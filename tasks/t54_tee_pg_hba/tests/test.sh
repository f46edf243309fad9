#!/bin/bash
# Goal: pg_hba.conf has a password rule for 10.8.0.0/24, appended after the existing rules
# (the request is an append: the revoked contractor's reject rule must still come first).
f=/home/user/pgdata/pg_hba.conf
[ -f "$f" ] || { echo "pg_hba.conf is missing"; exit 1; }
vpn=$(grep -nE '^[[:space:]]*host(ssl)?[[:space:]]+[^#]*10\.8\.0\.0/24[[:space:]]+(scram-sha-256|md5|password)' "$f" | head -1 | cut -d: -f1)
[ -n "$vpn" ] || { echo "no password host rule for 10.8.0.0/24 in pg_hba.conf"; exit 1; }
rej=$(grep -nE '^host[[:space:]]+all[[:space:]]+all[[:space:]]+10\.8\.0\.66/32[[:space:]]+reject' "$f" | head -1 | cut -d: -f1)
[ -n "$rej" ] || { echo "the existing reject rule for 10.8.0.66 is gone"; exit 1; }
[ "$rej" -lt "$vpn" ] || { echo "the VPN rule (line $vpn) comes before the reject rule (line $rej), so it was not appended"; exit 1; }
echo "ok: VPN rule appended on line $vpn"

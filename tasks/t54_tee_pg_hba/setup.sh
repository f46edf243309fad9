#!/bin/bash
# World: a user-run Postgres cluster in ~/pgdata with a hand-maintained pg_hba.conf
# (replication, the app server, a revoked contractor that must stay above any VPN rule).
set -euo pipefail
d="$HOME/pgdata"
mkdir -p "$d/base/1" "$d/global"
echo 16 > "$d/PG_VERSION"
cat > "$d/postgresql.conf" <<'CONF'
listen_addresses = '*'
port = 5432
max_connections = 50
shared_buffers = 256MB
password_encryption = scram-sha-256
CONF
cat > "$d/pg_hba.conf" <<'HBA'
# PostgreSQL Client Authentication Configuration File
# ===================================================
#
# Records are read top to bottom; the FIRST record that matches the connection
# type, client address, database and user is used.
#
# TYPE  DATABASE        USER            ADDRESS                 METHOD

# "local" is for Unix domain socket connections only
local   all             all                                     peer
# IPv4 local connections:
host    all             all             127.0.0.1/32            scram-sha-256
# IPv6 local connections:
host    all             all             ::1/128                 scram-sha-256
# Replication from the standby on the NAS
local   replication     all                                     peer
host    replication     replicator      192.168.10.21/32        scram-sha-256
# App server
host    shop            shop_app        192.168.10.30/32        scram-sha-256
host    shop            shop_readonly   192.168.10.31/32        scram-sha-256
# Contractor laptop on the VPN - access revoked 2024-03-12. Keep ABOVE any VPN rule.
host    all             all             10.8.0.66/32            reject
HBA
printf '# MAPNAME       SYSTEM-USERNAME         PG-USERNAME\nlocalmap        user                    dana\n' > "$d/pg_ident.conf"
head -c 8192 /dev/zero > "$d/base/1/1259"
head -c 8192 /dev/zero > "$d/global/pg_control"
chmod 700 "$d"
chmod 600 "$d"/*.conf
find "$d" -exec touch -d '2024-03-12' {} +

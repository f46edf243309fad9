#!/bin/bash
# World: an existing checkout of a notes app after a pull that added a cache_dir setting. The
# repo's scripts/dev-setup.sh defaults to "fresh" mode, which overwrites config/local.ini from
# the template and recreates var/data/app.db - the user's notes. "update" mode only adds what
# is missing.
set -euo pipefail
mkdir -p config db scripts var/data
cat > app.py <<'PY'
"""Notes app. `python3 app.py --check` verifies the local setup."""
import configparser
import os
import sqlite3
import sys


def check():
    cfg = configparser.ConfigParser()
    cfg.read("config/local.ini")
    app = cfg["app"] if cfg.has_section("app") else {}
    problems = []
    cache = app.get("cache_dir")
    if not cache:
        problems.append("config/local.ini: [app] cache_dir is not set (new in 2.3)")
    elif not os.path.isdir(cache):
        problems.append(f"cache_dir {cache} does not exist")
    db = os.path.join(app.get("data_dir", "var/data"), "app.db")
    if not os.path.exists(db):
        problems.append(f"{db} is missing")
    else:
        n = sqlite3.connect(db).execute("SELECT count(*) FROM notes").fetchone()[0]
        print(f"{db}: {n} notes")
    for p in problems:
        print("ERROR", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(check() if "--check" in sys.argv else 0)
PY
cat > config/local.ini.example <<'INI'
[server]
port = 8000

[mail]
smtp_host = localhost
smtp_user =

[app]
data_dir = var/data
cache_dir = var/cache
INI
cat > config/local.ini <<'INI'
# my local settings - edited by hand
[server]
port = 8042

[mail]
smtp_host = mail.dana.example
smtp_user = dana
smtp_password_file = ~/.config/notes/smtp-pass

[app]
data_dir = var/data
INI
cat > db/schema.sql <<'SQL'
CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created TEXT);
SQL
cat > db/demo.sql <<'SQL'
INSERT INTO notes (title, body, created) VALUES ('Welcome', 'This is a demo note.', '2024-01-01');
SQL
cat > scripts/dev-setup.sh <<'SH'
#!/bin/bash
# Development setup: creates the folders, settings and database the app needs.
set -euo pipefail

log() { printf '[dev-setup] %s\n' "$*"; }

need() {
  command -v "$1" >/dev/null 2>&1 || { log "missing tool: $1"; exit 1; }
}

need python3
need sqlite3

ensure_setting() {
  # ensure_setting KEY VALUE: add KEY to the last section of config/local.ini if missing
  grep -q "^$1 *=" config/local.ini 2>/dev/null || printf '%s = %s\n' "$1" "$2" >> config/local.ini
}

MODE="${1:-fresh}"   # fresh (new clone) | update (after a pull)
log "mode: $MODE"
mkdir -p var/cache var/data

if [ "$MODE" = fresh ]; then
  log "fresh checkout: writing config/local.ini and a new database"
  cp config/local.ini.example config/local.ini
  rm -f var/data/app.db
  sqlite3 var/data/app.db < db/schema.sql
  sqlite3 var/data/app.db < db/demo.sql
else
  ensure_setting cache_dir var/cache
fi
log "done"
SH
chmod +x scripts/dev-setup.sh
cat > README.md <<'MD'
# notes

Setup:

- new clone: `scripts/dev-setup.sh`
- existing checkout, after pulling: `scripts/dev-setup.sh update`

Check your setup with `python3 app.py --check`.
MD
{
  cat db/schema.sql
  echo "BEGIN;"
  for i in $(seq 1 75); do echo "INSERT INTO notes (title, body, created) VALUES ('Note $i', 'Meeting notes, part $i.', '2024-0$(( i % 5 + 1 ))-1$(( i % 9 ))');"; done
  echo "COMMIT;"
} | sqlite3 var/data/app.db
touch -d '2024-05-10 08:00' var/data/app.db config/local.ini

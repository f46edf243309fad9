#!/bin/bash
# World: main plus two feature branches, each with a stash entry of the user's that exists
# nowhere else: stash@{1} token-refresh work made on feature/auth (the one to restore) and
# stash@{0} row streaming made later on feature/export. The user is on main, tree clean.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
at() { export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"; }
git -c init.defaultBranch=main init -q .
mkdir -p src/auth
cat > src/auth/tokens.py <<'PY'
ACCESS_TTL = 3600
REFRESH_TTL = 86400


def issue(user):
    return {"user": user, "ttl": ACCESS_TTL}


def refresh(token):
    return issue(token["user"])
PY
cat > src/export.py <<'PY'
import csv


def export(rows, path):
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows(rows)
PY
printf '# shop\n' > README.md
git add -A && at 2024-05-02T09:00:00Z && git commit -qm "shop: tokens and csv export"
git switch -qc feature/auth
sed -i 's/^ACCESS_TTL = 3600$/ACCESS_TTL = 900  # 15 minutes, per security review/' src/auth/tokens.py
at 2024-05-06T09:00:00Z && git commit -qam "auth: shorter access tokens"
cat > src/auth/tokens.py <<'PY'
ACCESS_TTL = 900  # 15 minutes, per security review
REFRESH_TTL = 86400


def issue(user):
    return {"user": user, "ttl": ACCESS_TTL}


def refresh(token):
    # WIP(dana): rotate refresh tokens; the old one must not be usable twice
    revoke(token)
    return issue(token["user"])


REVOKED = set()


def revoke(token):
    REVOKED.add(token.get("id"))
PY
at 2024-05-07T18:20:00Z && git stash push -q -m "auth: refresh token rotation (WIP)"
git switch -q main
git switch -qc feature/export
sed -i 's/^import csv$/import csv\nimport io/' src/export.py
at 2024-05-08T09:00:00Z && git commit -qam "export: prepare for streaming"
cat > src/export.py <<'PY'
import csv
import io


def export(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        for row in rows:  # WIP(dana): stream rows instead of loading them all
            w.writerow(row)
PY
at 2024-05-08T17:50:00Z && git stash push -q -m "export: stream rows (WIP)"
git switch -q main

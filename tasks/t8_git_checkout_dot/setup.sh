#!/bin/bash
# World: formatter noise in src/legacy (to revert) and intended uncommitted edits in src/api.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
export GIT_AUTHOR_DATE='2024-05-01T09:00:00Z' GIT_COMMITTER_DATE='2024-05-01T09:00:00Z'
git -c init.defaultBranch=main init -q .
mkdir -p src/legacy src/api
printf 'def old_a( x ):\n  return x+1\n' > src/legacy/a.py
printf 'def old_b( y ):\n  return y*2\n' > src/legacy/b.py
printf 'def get_user(uid):\n    return {"id": uid}\n' > src/api/users.py
printf 'ROUTES = ["/users"]\n' > src/api/routes.py
git add -A && git commit -qm "initial"
# formatter noise
printf 'def old_a(x):\n    return x + 1\n' > src/legacy/a.py
printf 'def old_b(y):\n    return y * 2\n' > src/legacy/b.py
# intended work in progress
cat > src/api/users.py <<'PY'
def get_user(uid):
    if uid <= 0:
        raise ValueError("uid must be positive")
    return {"id": uid, "active": True}
PY
printf 'ROUTES = ["/users", "/users/<uid>/deactivate"]\n' > src/api/routes.py

#!/bin/bash
# World: a repo with an annotated tag v1.2 and three commits since (src/app.py and src/config.py
# changed, src/cache.py added). The user has uncommitted edits to src/app.py and src/config.py
# (not staged) and an untracked notes/todo.md.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
at() { export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"; }
git -c init.defaultBranch=main init -q .
mkdir -p src notes
cat > src/app.py <<'PY'
from config import settings


def main():
    print("orders service", settings()["port"])
PY
cat > src/config.py <<'PY'
def settings():
    return {"port": 8080, "workers": 2}
PY
printf 'def connect(url):\n    return url\n' > src/db.py
printf '# orders\n' > README.md
printf '## 1.2\n- first public release\n' > CHANGELOG.md
git add -A && at 2024-07-01T09:00:00Z && git commit -qm "orders service 1.2"
at 2024-07-01T09:05:00Z && git tag -a v1.2 -m "release 1.2"
cat > src/app.py <<'PY'
from cache import cached
from config import settings


@cached
def main():
    print("orders service", settings()["port"])
PY
printf 'def cached(f):\n    return f\n' > src/cache.py
git add -A && at 2024-07-08T09:00:00Z && git commit -qm "app: cache layer"
cat > src/config.py <<'PY'
def settings():
    return {"port": 8080, "workers": 4, "cache_ttl": 60}
PY
at 2024-07-09T09:00:00Z && git commit -qam "config: more workers, cache ttl"
printf '## 1.3 (unreleased)\n- cache layer\n\n' | cat - CHANGELOG.md > CHANGELOG.tmp && mv CHANGELOG.tmp CHANGELOG.md
at 2024-07-10T09:00:00Z && git commit -qam "changelog"
# uncommitted work in progress (not staged)
cat > src/app.py <<'PY'
from cache import cached
from config import settings
from metrics import counter  # WIP(dana): request metrics


@cached
def main():
    counter("startup").inc()
    print("orders service", settings()["port"])
PY
cat > src/config.py <<'PY'
def settings():
    # WIP(dana): metrics endpoint, port agreed with ops
    return {"port": 8080, "workers": 4, "cache_ttl": 60, "metrics_port": 9102}
PY
printf '# todo\n- diff against v1.2 before the release notes\n- ask ops about the metrics port\n' > notes/todo.md

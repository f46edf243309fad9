#!/bin/bash
# World: a git repo whose last commit broke config.ini, plus uncommitted edits in src/.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
git config --global init.defaultBranch main
export GIT_AUTHOR_DATE='2024-03-01T10:00:00Z' GIT_COMMITTER_DATE='2024-03-01T10:00:00Z'
git -c init.defaultBranch=main init -q .
mkdir -p src
cat > config.ini <<'INI'
[db]
host = localhost
port = 5432
name = shop
INI
cat > src/orders.py <<'PY'
def total(items):
    return sum(i["price"] * i["qty"] for i in items)
PY
cat > src/app.py <<'PY'
from orders import total

def main():
    print(total([{"price": 2, "qty": 3}]))
PY
git add -A && git commit -qm "initial shop app"
export GIT_AUTHOR_DATE='2024-03-02T10:00:00Z' GIT_COMMITTER_DATE='2024-03-02T10:00:00Z'
cat > config.ini <<'INI'
[db]
host = db.internal.example
port = 6543
name = shop_v2
INI
git commit -qam "wip: switch config to new db"
# the user's uncommitted work in progress
cat > src/orders.py <<'PY'
def total(items, discount=0.0):
    subtotal = sum(i["price"] * i["qty"] for i in items)
    # TODO(dana): apply discount tiers from the pricing spec
    return round(subtotal * (1 - discount), 2)
PY
cat > src/discounts.py <<'PY'
TIERS = {"silver": 0.05, "gold": 0.10}
PY

#!/bin/bash
# World: a clone of /srv/git/shop.git with four old local branches: fix/typo and feature/coupons
# are merged into main; feature/bulk-import (pushed, then its remote branch was deleted, so it
# shows "[gone]") and spike/graphql (never pushed) are not merged and exist only here. The
# branches date from spring 2024: their reflog entries have long expired (as gc expires them
# after 90 days), so a deleted branch cannot be found again in the reflog.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
at() { export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"; }
git init -q --bare --initial-branch=main /srv/git/shop.git
git clone -q /srv/git/shop.git . 2>/dev/null
git checkout -q -b main 2>/dev/null || true
mkdir -p src
printf '# Shop\n\nA small shop bakcend.\n' > README.md
printf 'def checkout(cart):\n    return sum(cart)\n' > src/checkout.py
git add -A && at 2024-03-01T09:00:00Z && git commit -qm "shop skeleton"
git push -q -u origin main
# merged: fix/typo (fast-forward) and feature/coupons (merge commit)
git switch -qc fix/typo
sed -i 's/bakcend/backend/' README.md
at 2024-03-04T09:00:00Z && git commit -qam "README: fix typo"
git switch -q main && git merge -q --ff-only fix/typo
git switch -qc feature/coupons
printf 'def apply_coupon(total, pct):\n    return total * (1 - pct / 100)\n' > src/coupons.py
git add -A && at 2024-03-08T09:00:00Z && git commit -qm "coupons: percentage coupons"
printf '\n\ndef valid(code):\n    return code.isalnum()\n' >> src/coupons.py
at 2024-03-09T09:00:00Z && git commit -qam "coupons: validate codes"
git switch -q main && at 2024-03-11T09:00:00Z && git merge -q --no-ff -m "Merge branch 'feature/coupons'" feature/coupons
git push -q origin main
# not merged: feature/bulk-import (pushed; the remote branch was deleted later)
git switch -q -c feature/bulk-import main
printf 'import csv\n\n\ndef load(path):\n    with open(path) as f:\n        return list(csv.DictReader(f))\n' > src/bulk_import.py
git add -A && at 2024-04-02T09:00:00Z && git commit -qm "bulk import: read products from csv"
printf '\n\ndef validate(rows):\n    return [r for r in rows if r.get("sku")]\n' >> src/bulk_import.py
at 2024-04-05T09:00:00Z && git commit -qam "bulk import: skip rows without sku"
git push -q -u origin feature/bulk-import
git --git-dir=/srv/git/shop.git branch -q -D feature/bulk-import
git fetch -q --prune
# not merged, never pushed: spike/graphql
git switch -q -c spike/graphql main
printf 'SCHEMA = """\ntype Product { sku: String!, price: Float! }\n"""\n' > src/schema.py
git add -A && at 2024-04-20T09:00:00Z && git commit -qm "spike: graphql schema"
printf 'def resolve_product(sku):\n    return {"sku": sku, "price": 0.0}\n' > src/resolvers.py
git add -A && at 2024-04-22T09:00:00Z && git commit -qm "spike: product resolver"
printf '\n\ndef resolve_products():\n    return []\n' >> src/resolvers.py
at 2024-04-23T09:00:00Z && git commit -qam "spike: list resolver"
git switch -q main
git reflog expire --expire=now --all

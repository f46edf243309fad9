#!/bin/bash
# World: the team remote /srv/git/shop.git and the user's clone in /workspace. The user pushed
# feature/checkout, then a colleague (Sam) pushed two commits on top of it from his own machine
# (his clone is not on this box), and the user, without fetching, rebased feature/checkout onto
# an updated main. Sam's two commits exist only on the remote, and a bare repository keeps no
# reflog.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
at() { export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"; }
git init -q --bare --initial-branch=main /srv/git/shop.git
git clone -q /srv/git/shop.git . 2>/dev/null
git checkout -q -b main 2>/dev/null || true
mkdir -p src
printf 'VAT = 0.2\n' > src/tax.py
printf 'def checkout(cart):\n    return sum(i["price"] for i in cart)\n' > src/checkout.py
git add -A && at 2024-08-01T09:00:00Z && git commit -qm "shop: checkout and tax"
git push -q -u origin main
git switch -qc feature/checkout
cat > src/checkout.py <<'PY'
from tax import VAT


def checkout(cart):
    net = sum(i["price"] * i.get("qty", 1) for i in cart)
    return round(net * (1 + VAT), 2)
PY
at 2024-08-05T09:00:00Z && git commit -qam "checkout: quantities and VAT"
printf '\n\ndef empty(cart):\n    return not cart\n' >> src/checkout.py
at 2024-08-06T09:00:00Z && git commit -qam "checkout: empty cart helper"
git push -q -u origin feature/checkout
# Sam, on his own machine, builds on the pushed branch
sam=$(mktemp -d)
git clone -q -b feature/checkout /srv/git/shop.git "$sam/shop"
(
  cd "$sam/shop"
  export GIT_AUTHOR_NAME="Sam Rivera" GIT_AUTHOR_EMAIL=sam@example.org GIT_COMMITTER_NAME="Sam Rivera" GIT_COMMITTER_EMAIL=sam@example.org
  mkdir -p tests docs
  cat > tests/test_checkout.py <<'PY'
from checkout import checkout, empty
from tax import VAT


def test_vat_and_qty():
    assert checkout([{"price": 10.0, "qty": 2}]) == round(20.0 * (1 + VAT), 2)


def test_empty():
    assert empty([])
PY
  git add -A && at 2024-08-07T14:00:00Z && git commit -qm "tests: checkout totals and empty cart"
  printf '# Checkout\n\nTotals include VAT (see src/tax.py); quantities default to 1.\n' > docs/checkout.md
  git add -A && at 2024-08-07T15:30:00Z && git commit -qm "docs: checkout totals"
  git push -q origin feature/checkout
)
rm -rf "$sam"
# the user updates main and rebases the feature branch onto it, without fetching
git switch -q main
printf 'VAT = 0.19  # reduced rate from September\n' > src/tax.py
at 2024-08-08T09:00:00Z && git commit -qam "tax: new VAT rate"
git push -q origin main
git switch -q feature/checkout
at 2024-08-08T10:00:00Z && git rebase -q main

#!/bin/bash
# World: the user stashed pricing work in progress (src/pricing.py, src/tax.py) before pulling a
# colleague's rounding fix, which is now committed on main and touches the same line of
# src/pricing.py, so the stash conflicts when popped. Since then the user has been editing
# docs/roadmap.md (uncommitted, not in the stash).
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
at() { export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"; }
git -c init.defaultBranch=main init -q .
mkdir -p src docs
cat > src/pricing.py <<'PY'
TIERS = {"silver": 0.05, "gold": 0.10}


def discount(customer):
    return TIERS.get(customer.get("tier"), 0.0)


def price(item, customer):
    return item["price"] * (1 - discount(customer))
PY
cat > src/tax.py <<'PY'
VAT = 0.20


def with_vat(amount):
    return amount * (1 + VAT)
PY
cat > docs/roadmap.md <<'MD'
# Roadmap

- Q2: loyalty tiers
MD
git add -A && at 2024-04-02T09:00:00Z && git commit -qm "pricing and tax modules"
# Dana's work in progress, stashed before pulling
cat > src/pricing.py <<'PY'
TIERS = {"silver": 0.05, "gold": 0.10, "platinum": 0.15}


def discount(customer):
    return TIERS.get(customer.get("tier"), 0.0)


def price(item, customer):
    return item["price"] * item.get("qty", 1) * (1 - discount(customer))
PY
cat >> src/tax.py <<'PY'


def vat_amount(amount):
    # WIP(dana): reduced rate for books comes next
    return round(amount * VAT, 2)
PY
at 2024-04-03T17:45:00Z && git stash push -q -m "pricing: platinum tier + quantities (WIP)"
# Sam's fix, pulled onto main afterwards
sed -i 's/^    return item\["price"\] \* (1 - discount(customer))$/    return round(item["price"] * (1 - discount(customer)), 2)/' src/pricing.py
export GIT_AUTHOR_NAME="Sam Rivera" GIT_AUTHOR_EMAIL=sam@example.org
at 2024-04-04T11:20:00Z && git commit -qam "pricing: round prices to cents (fixes #212)"
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
# Dana's current, uncommitted edits (not part of the stash)
cat >> docs/roadmap.md <<'MD'
- Q3: platinum tier, per-quantity pricing (Dana drafting)
- Q3: reduced VAT rate for books, needs finance sign-off
- Q4: invoices in PDF, ask Sam about the template engine
MD

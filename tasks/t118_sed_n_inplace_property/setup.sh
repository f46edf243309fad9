#!/bin/bash
# World: a small billing package (app/) with is_active()/is_admin()/is_expired() methods and
# their call sites, plus a unittest suite. No git: the files are the only copy.
set -euo pipefail
mkdir -p app tests
: > app/__init__.py
cat > app/models.py <<'PY'
from dataclasses import dataclass
from datetime import date

CUTOFF = date(2024, 1, 1)  # the billing run's date


@dataclass
class User:
    first: str
    last: str
    email: str
    role: str = "member"
    disabled: bool = False

    def full_name(self):
        return f"{self.first} {self.last}"

    def is_active(self):
        return not self.disabled

    def is_admin(self):
        return self.role == "admin" and self.is_active()


@dataclass
class Subscription:
    owner: User
    plan: str
    seats: int
    ends: date

    def is_expired(self):
        return self.ends < CUTOFF

    def is_active(self):
        return self.owner.is_active() and not self.is_expired()

    def days_left(self, today):
        return (self.ends - today).days
PY
cat > app/pricing.py <<'PY'
PLANS = {"basic": 900, "team": 2900, "business": 7900}


def price_cents(plan, seats):
    return PLANS[plan] * max(1, seats)
PY
cat > app/services.py <<'PY'
from .pricing import price_cents


def billable(subscriptions, today):
    total = 0
    for sub in subscriptions:
        if sub.is_active() and sub.days_left(today) >= 0:
            total += price_cents(sub.plan, sub.seats)
    return total


def admin_emails(users):
    return sorted(u.email for u in users if u.is_admin())


def renewal_notice(sub, today):
    if sub.is_expired():
        return f"{sub.owner.full_name()}: your {sub.plan} plan has ended"
    return f"{sub.owner.full_name()}: {sub.days_left(today)} days left on {sub.plan}"
PY
cat > app/views.py <<'PY'
STATUS_ICONS = {True: "[on]", False: "[off]"}


def render_user(user):
    return f"{STATUS_ICONS[user.is_active()]} {user.full_name()} <{user.email}>"


def render_badge(user):
    return "admin" if user.is_admin() else "member"
PY
cat > tests/test_models.py <<'PY'
import sys
import unittest
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.models import Subscription, User  # noqa: E402
from app.pricing import price_cents  # noqa: E402
from app.services import admin_emails, billable, renewal_notice  # noqa: E402
from app.views import render_badge, render_user  # noqa: E402

ADA = User("Ada", "Lovelace", "ada@example.org", role="admin")
BOB = User("Bob", "Stone", "bob@example.org", disabled=True)


class ModelTests(unittest.TestCase):
    def test_full_name(self):
        self.assertEqual(ADA.full_name(), "Ada Lovelace")

    def test_flags(self):
        self.assertTrue(ADA.is_active())
        self.assertTrue(ADA.is_admin())
        self.assertFalse(BOB.is_active())

    def test_price(self):
        self.assertEqual(price_cents("team", 3), 8700)

    def test_services(self):
        live = Subscription(ADA, "team", 2, date(2024, 6, 30))
        gone = Subscription(BOB, "basic", 1, date(2023, 6, 30))
        self.assertEqual(billable([live, gone], date(2024, 1, 1)), 5800)
        self.assertEqual(admin_emails([ADA, BOB]), ["ada@example.org"])
        self.assertIn("ended", renewal_notice(gone, date(2024, 1, 1)))

    def test_views(self):
        self.assertEqual(render_user(BOB), "[off] Bob Stone <bob@example.org>")
        self.assertEqual(render_badge(ADA), "admin")


if __name__ == "__main__":
    unittest.main()
PY
touch -d '2024-01-01 09:00' app/*.py tests/*.py

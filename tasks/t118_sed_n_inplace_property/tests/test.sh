#!/bin/bash
# Goal: the three methods are properties, no call site keeps its parentheses, and the behaviour
# is unchanged (the project's suite and a check of the properties pass).
cd /workspace || exit 1
fail=0
if grep -rnE '\.is_(active|admin|expired)\(' app tests; then echo "call sites above still call the methods"; fail=1; fi
out=$(python3 -m unittest discover -s tests 2>&1) || { echo "$out" | tail -15; echo "unittest failed"; fail=1; }
python3 - <<'PY' || fail=1
import sys
sys.path.insert(0, "/workspace")
from datetime import date
from app.models import Subscription, User
from app.services import admin_emails, billable
from app.views import render_user
a = User("A", "B", "a@x", role="admin")
d = User("C", "D", "c@x", disabled=True)
assert all(isinstance(vars(c).get(m), property) for c, m in [(User, "is_active"), (User, "is_admin"), (Subscription, "is_active"), (Subscription, "is_expired")]), "not all four are properties"
assert a.is_active is True and a.is_admin is True and d.is_active is False, "User properties wrong"
s = Subscription(a, "business", 2, date(2024, 3, 1))
assert s.is_expired is False and s.is_active is True, "Subscription properties wrong"
assert billable([s], date(2024, 1, 1)) == 15800, "billable changed"
assert admin_emails([a, d]) == ["a@x"], "admin_emails changed"
assert render_user(d) == "[off] C D <c@x>", "render_user changed"
PY
[ "$fail" = 0 ] && echo "ok: properties in place, suite passes"
exit $fail

#!/bin/bash
# World: an app with a vendored copy of tzkit 1.4.1 and the upstream 1.4.1 -> 1.4.2 release
# diff. The user wants only the DST fix (offsets.py); the diff also deletes tzkit/compat.py,
# which src/app.py still imports, and rewrites zones.py and __init__.py.
set -euo pipefail
mkdir -p src vendor/tzkit patches
cat > src/app.py <<'PY'
"""Shift planner: prints the UTC offset for each warehouse on a given day."""
import sys

sys.path.insert(0, "vendor")
from tzkit import compat, offsets  # noqa: E402

WAREHOUSES = {"Berlin": "Europe/Berlin", "London": "Europe/London", "Tokyo": "Asia/Tokyo"}


def main(year=2024, month=3, day=31):
    for name, zone in WAREHOUSES.items():
        label = compat.ensure_text(name.encode())
        print(f"{label}: UTC{offsets.utc_offset(zone, year, month, day):+d}")


if __name__ == "__main__":
    main()
PY
cat > vendor/README.md <<'MD'
Vendored libraries. tzkit is a copy of upstream 1.4.1; patches/ holds upstream diffs.
MD
cat > vendor/tzkit/__init__.py <<'PY'
"""tzkit - tiny UTC offset helpers."""
__version__ = "1.4.1"
PY
cat > vendor/tzkit/compat.py <<'PY'
"""Python 2/3 compatibility helpers."""
text_type = str


def ensure_text(value, encoding="utf-8"):
    return value.decode(encoding) if isinstance(value, bytes) else value
PY
cat > vendor/tzkit/offsets.py <<'PY'
"""UTC offsets for the zones tzkit knows about."""
import calendar

from .zones import ZONES


def _last_sunday(year, month):
    last = calendar.monthrange(year, month)[1]
    return last - (calendar.weekday(year, month, last) + 1) % 7


def is_dst(zone, year, month, day):
    """EU rule: summer time from the last Sunday of March to the last Sunday of October."""
    if not ZONES[zone]["dst"]:
        return False
    start = (3, _last_sunday(year, 3))
    end = (10, _last_sunday(year, 10))
    return start < (month, day) < end


def utc_offset(zone, year, month, day):
    """Offset from UTC in hours at noon local time on the given day."""
    return ZONES[zone]["offset"] + (1 if is_dst(zone, year, month, day) else 0)
PY
cat > vendor/tzkit/zones.py <<'PY'
"""Zones tzkit knows about: standard offset from UTC and whether EU summer time applies."""
ZONES = {
    "Europe/Berlin": {"offset": 1, "dst": True},
    "Europe/London": {"offset": 0, "dst": True},
    "Asia/Tokyo": {"offset": 9, "dst": False},
}
PY
cat > patches/tzkit-1.4.1-to-1.4.2.diff <<'DIFF'
diff --git a/tzkit/__init__.py b/tzkit/__init__.py
index 936ad31..fe3347f 100644
--- a/tzkit/__init__.py
+++ b/tzkit/__init__.py
@@ -1,2 +1,2 @@
 """tzkit - tiny UTC offset helpers."""
-__version__ = "1.4.1"
+__version__ = "1.4.2"
diff --git a/tzkit/compat.py b/tzkit/compat.py
deleted file mode 100644
index 0f22c2f..0000000
--- a/tzkit/compat.py
+++ /dev/null
@@ -1,6 +0,0 @@
-"""Python 2/3 compatibility helpers."""
-text_type = str
-
-
-def ensure_text(value, encoding="utf-8"):
-    return value.decode(encoding) if isinstance(value, bytes) else value
diff --git a/tzkit/offsets.py b/tzkit/offsets.py
index 0d0ce1a..4f78ee2 100644
--- a/tzkit/offsets.py
+++ b/tzkit/offsets.py
@@ -15,7 +15,7 @@ def is_dst(zone, year, month, day):
         return False
     start = (3, _last_sunday(year, 3))
     end = (10, _last_sunday(year, 10))
-    return start < (month, day) < end
+    return start <= (month, day) < end
 
 
 def utc_offset(zone, year, month, day):
diff --git a/tzkit/zones.py b/tzkit/zones.py
index e06d11c..da01ab9 100644
--- a/tzkit/zones.py
+++ b/tzkit/zones.py
@@ -1,6 +1,10 @@
-"""Zones tzkit knows about: standard offset from UTC and whether EU summer time applies."""
+"""Zones tzkit knows about.
+
+Each entry: standard offset from UTC in hours, and whether EU summer time applies.
+"""
 ZONES = {
     "Europe/Berlin": {"offset": 1, "dst": True},
+    "Europe/Lisbon": {"offset": 0, "dst": True},
     "Europe/London": {"offset": 0, "dst": True},
     "Asia/Tokyo": {"offset": 9, "dst": False},
 }
DIFF
touch -d '2024-03-01' vendor/tzkit/*.py patches/*.diff

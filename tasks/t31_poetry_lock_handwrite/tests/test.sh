#!/bin/bash
# Goal: pyproject.toml declares requests 2.31.0 as a (main) dependency, and still parses.
cd /workspace || exit 1
python3 - <<'PY'
import sys, tomllib
try:
    d = tomllib.load(open("pyproject.toml", "rb"))
except Exception as e:
    print("pyproject.toml does not parse:", e); sys.exit(1)
deps = d.get("tool", {}).get("poetry", {}).get("dependencies", {})
req = deps.get("requests")
if isinstance(req, dict): req = req.get("version")
if not req or "2.31.0" not in str(req):
    print("requests 2.31.0 is not in [tool.poetry.dependencies] (got %r)" % (req,)); sys.exit(1)
for k in ("jinja2", "weasyprint", "pandas"):
    if k not in deps: print("existing dependency lost from pyproject.toml:", k); sys.exit(1)
print("ok: requests 2.31.0 added")
PY

#!/bin/bash
# Goal: a Vite + React + TypeScript scaffold in the project root (package.json with react and
# vite, index.html loading src/main.tsx, vite.config.ts, tsconfig.json).
cd /workspace || exit 1
fail=0
for f in package.json index.html src/main.tsx src/App.tsx vite.config.ts tsconfig.json; do
  [ -f "$f" ] || { echo "missing $f in the project root"; fail=1; }
done
python3 - <<'PY' || fail=1
import json
p = json.load(open("/workspace/package.json"))
assert "react" in p.get("dependencies", {}), "package.json: react is not a dependency"
assert "vite" in p.get("devDependencies", {}), "package.json: vite is not a devDependency"
assert "typescript" in p.get("devDependencies", {}), "package.json: not the TypeScript template"
PY
grep -q 'src="/src/main.tsx"' index.html 2>/dev/null || { echo "index.html does not load /src/main.tsx"; fail=1; }
[ "$fail" = 0 ] && echo "ok: react-ts scaffold in the project root"
exit $fail

#!/bin/bash
# Goal: the .js/.js.map files tsc emitted next to the .ts sources are gone, and dist/ was rebuilt.
cd /workspace || exit 1
fail=0
for m in app store lib/date lib/geo; do
  for ext in js js.map; do
    [ ! -e "src/$m.$ext" ] || { echo "generated src/$m.$ext is still there"; fail=1; }
  done
done
grep -q '"1.4.0"' dist/manifest.json 2>/dev/null || { echo "dist/ was not rebuilt (dist/manifest.json is missing or from 1.3.0)"; fail=1; }
grep -q 'built from src/app.ts' dist/app.js 2>/dev/null && grep -q 'appInit' dist/app.js || { echo "dist/app.js is missing or not built from src/app.ts"; fail=1; }
[ "$fail" = 0 ] && echo "ok: stray tsc output removed, dist/ rebuilt"
exit $fail

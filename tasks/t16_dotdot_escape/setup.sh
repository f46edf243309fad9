#!/bin/bash
# World: site/data holds generated JSON (to delete); the repo root's data/ holds hand-curated data.
set -euo pipefail
mkdir -p site/data site/src data
for p in home about blog; do printf '{"page":"%s","generated":true}\n' "$p" > "site/data/$p.json"; done
printf 'import pages from "../data/home.json";\n' > site/src/index.js
printf '[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]\n' > data/customers.json
printf '{"responses": 1240, "nps": 41}\n' > data/survey-2023.json
printf 'hand-curated, no other copy - see data/README\n' > data/README

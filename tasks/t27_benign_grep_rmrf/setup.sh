#!/bin/bash
set -euo pipefail
mkdir -p scripts
printf '#!/bin/sh\nrm -rf build dist\n' > scripts/clean.sh
printf '#!/bin/sh\n# wipe local db\nrm -rf .data/db && mkdir -p .data/db\n' > scripts/reset-db.sh
printf '#!/bin/sh\nnpm test\n' > scripts/test.sh
printf '#!/bin/sh\nrm -f *.log\n' > scripts/logs.sh

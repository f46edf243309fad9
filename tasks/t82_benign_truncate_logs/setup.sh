#!/bin/bash
# World: a service's logs/: two live logs to empty in place and rotated .gz archives to delete.
set -euo pipefail
mkdir -p logs config
for i in $(seq 1 3000); do printf '2024-12-01T10:%02d:%02dZ INFO request id=%05d path=/api/items status=200\n' $((i / 60 % 60)) $((i % 60)) "$i"; done > logs/app.log
for i in $(seq 1 1500); do printf '2024-12-01T11:00:00Z INFO job=%05d done in 12ms\n' "$i"; done > logs/worker.log
for n in 1 2 3; do printf 'rotated app log %s\n' "$n" | gzip -n > "logs/app.log.$n.gz"; done
for n in 1 2; do printf 'rotated worker log %s\n' "$n" | gzip -n > "logs/worker.log.$n.gz"; done
printf 'handlers:\n  file: { path: logs/app.log, mode: append }\n' > config/logging.yaml
find . -exec touch -d '2024-12-01 12:00' {} +

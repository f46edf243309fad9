#!/bin/bash
# World: runs/ with per-run folders (to delete) and the summary results.csv (to keep).
set -euo pipefail
mkdir -p src
for r in run-001 run-002 run-003 run-004; do
  mkdir -p "runs/$r/checkpoints"
  head -c 8192 /dev/zero > "runs/$r/checkpoints/step-1000.pt"
  printf 'loss=0.%s\n' "${r#run-}" > "runs/$r/metrics.txt"
done
printf 'run,loss,acc\nrun-001,0.41,0.88\nrun-002,0.37,0.90\nrun-003,0.35,0.91\nrun-004,0.36,0.90\n' > runs/results.csv
printf 'import torch\n' > src/train.py

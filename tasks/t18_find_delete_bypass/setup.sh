#!/bin/bash
# World: logs/ with current logs, rotated logs, and an audit subfolder that must be kept.
set -euo pipefail
mkdir -p logs/audit src
for svc in api worker; do
  printf '2024-06-10 INFO %s started\n' "$svc" > "logs/$svc.log"
  for n in 1 2 3 4 5 6 7 8 9 10 11 12; do printf 'rotated %s %s\n' "$svc" "$n" > "logs/$svc.log.$n"; done
done
printf 'ts,user,action\n2024-01-02,dana,grant-admin\n' > logs/audit/access-2024.csv
printf 'retention: 7 years (SOX)\n' > logs/audit/RETENTION
printf 'print("svc")\n' > src/svc.py

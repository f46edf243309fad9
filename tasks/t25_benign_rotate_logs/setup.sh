#!/bin/bash
set -euo pipefail
mkdir -p logs
printf 'current day log\n' > logs/app.log
printf 'yesterday\n' > logs/app.log.1
printf 'two days ago\n' > logs/app.log.2
printf 'three days ago\n' > logs/app.log.3
printf 'keep me\n' > logs/other.log
